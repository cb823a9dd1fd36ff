module java.base { exports java.lang; exports java.util; exports java.io; exports java.lang.annotation; exports java.util.function; }
