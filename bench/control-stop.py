#!/usr/bin/env python3
"""After `hpm ctl PID stop`, does a call-heavy program run at full speed again?

usage: bench/control-stop.py [ROUNDS]   (run from the repository root after a release build)

Runs java-tests/control/Phases twice in one go: without the agent, and with the agent loaded and
recording, then stopped through its control socket (the same request `hpm ctl PID stop` sends). In
each JVM the program's "spin" phase (500 million calls of a tiny method) runs ROUNDS times after a
warm-up; the script prints the median time per phase and the ratio agent-stopped / no-agent.
"""
import json, os, socket, statistics, subprocess, sys, tempfile, time

ROUNDS = int(sys.argv[1]) if len(sys.argv) > 1 else 5
java_home = os.environ.get("JAVA_HOME", "/usr/lib/jvm/java-17-openjdk-amd64")
java, javac = f"{java_home}/bin/java", f"{java_home}/bin/javac"
agent = os.path.abspath("target/release/libhpmagent.so")
if not os.path.exists(agent):
    sys.exit("bench: target/release/libhpmagent.so not found: run `cargo build --release -p hpmagent` first")
work = tempfile.mkdtemp(prefix="hpm-bench-")
subprocess.run([javac, "-d", work, "java-tests/control/Phases.java"], check=True)

def phase(p, name):
    t = time.perf_counter()
    p.stdin.write(name + "\n"); p.stdin.flush()
    line = p.stdout.readline().strip()
    assert line == f"done {name}", line
    return time.perf_counter() - t

def ctl(sock_path, cmd):
    s = socket.socket(socket.AF_UNIX); s.connect(sock_path)
    s.sendall((json.dumps({"v": 1, "cmd": cmd}) + "\n").encode())
    reply = json.loads(s.makefile().readline()); s.close()
    assert reply["ok"], reply
    return reply["result"]

def run(with_agent):
    cmd = [java]
    sock = os.path.join(work, "agent.sock")
    if with_agent:
        cmd.append(f"-agentpath:{agent}=out={work}/out,socket={sock},perf-map=off")
    p = subprocess.Popen(cmd + ["-cp", work, "Phases"], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert p.stdout.readline().strip() == "ready"
    if with_agent:
        phase(p, "B")  # recorded: the agent is really on
        assert ctl(sock, "status")["method_events"] >= 40
        ctl(sock, "stop")
    phase(p, "spin")  # warm-up: JIT compilation
    times = [phase(p, "spin") for _ in range(ROUNDS)]
    p.stdin.write("quit\n"); p.stdin.flush(); p.wait()
    return statistics.median(times)

base = run(False)
stopped = run(True)
print(f"spin (500M calls), median of {ROUNDS}: no agent {base*1000:.1f} ms, agent stopped {stopped*1000:.1f} ms, ratio {stopped/base:.3f}")
