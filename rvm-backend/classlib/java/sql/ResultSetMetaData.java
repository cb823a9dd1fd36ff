package java.sql;

public interface ResultSetMetaData extends Wrapper {
    int columnNoNulls = 0;
    int columnNullable = 1;
    int columnNullableUnknown = 2;
    int getColumnCount() throws SQLException;
    int isNullable(int column) throws SQLException;
    String getColumnLabel(int column) throws SQLException;
    String getColumnName(int column) throws SQLException;
    String getTableName(int column) throws SQLException;
    int getColumnType(int column) throws SQLException;
    String getColumnTypeName(int column) throws SQLException;
    String getColumnClassName(int column) throws SQLException;
}
