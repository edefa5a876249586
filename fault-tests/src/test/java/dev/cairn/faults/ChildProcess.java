package dev.cairn.faults;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;

/**
 * A JVM started as a separate OS process, its stdout and stderr appended to a log file. {@link #kill()} is
 * SIGKILL on Linux ({@link Process#destroyForcibly()}), {@link #stop()} is SIGTERM and waits for the exit.
 */
final class ChildProcess implements AutoCloseable {

    private final String name;
    private final Process process;
    private final Path log;

    private ChildProcess(String name, Process process, Path log) {
        this.name = name;
        this.process = process;
        this.log = log;
    }

    /** Starts {@code java <arguments>} with the same JDK as this JVM; output goes to {@code log}. */
    static ChildProcess startJava(String name, List<String> arguments, Path log) {
        List<String> command = new ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
        command.addAll(arguments);
        try {
            Files.createDirectories(log.getParent());
            Process process = new ProcessBuilder(command).redirectErrorStream(true)
                    .redirectOutput(ProcessBuilder.Redirect.appendTo(log.toFile())).start();
            return new ChildProcess(name, process, log);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot start " + name + ": " + command, e);
        }
    }

    /** Runs {@code java <arguments>} to its end; fails unless it exits 0 within {@code timeout}. */
    static void runJava(String name, List<String> arguments, Path log, Duration timeout) {
        int exit = exitCodeOfJava(name, arguments, log, timeout);
        if (exit != 0) {
            throw new IllegalStateException(name + " exited " + exit + "; see " + log);
        }
    }

    /**
     * Runs {@code java <arguments>} to its end and returns its exit code; fails unless it ends within {@code timeout}.
     */
    static int exitCodeOfJava(String name, List<String> arguments, Path log, Duration timeout) {
        ChildProcess child = startJava(name, arguments, log);
        try {
            if (!child.process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS)) {
                child.kill();
                throw new IllegalStateException(name + " did not finish within " + timeout + "; see " + log);
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while running " + name, e);
        }
        return child.process.exitValue();
    }

    /** SIGKILL: the process gets no chance to leave its group or finish its transaction. Waits for the exit. */
    void kill() {
        process.destroyForcibly();
        awaitExit(Duration.ofSeconds(30));
    }

    /** SIGTERM, without waiting: {@link #stop} waits for the exit. */
    void terminate() {
        process.destroy();
    }

    /**
     * SIGTERM (a clean stop), then SIGKILL if it is still running after {@code grace}; answers whether it exited on
     * the SIGTERM.
     */
    boolean stop(Duration grace) {
        process.destroy();
        if (!awaitExit(grace)) {
            kill();
            return false;
        }
        return true;
    }

    boolean isAlive() {
        return process.isAlive();
    }

    /** The exit code once the process has ended. */
    int exitValue() {
        return process.exitValue();
    }

    /**
     * SIGSTOP: the process is frozen where it is, its sockets open, until {@link #resume()}. A frozen sidecar answers
     * no trigger, so the checkpoint it was asked for stays pending, as behind a long GC pause.
     */
    void pause() {
        signal("STOP");
    }

    /** SIGCONT: a {@link #pause() paused} process goes on from where it was. */
    void resume() {
        signal("CONT");
    }

    private void signal(String signal) {
        try {
            Process kill = new ProcessBuilder("kill", "-" + signal, String.valueOf(process.pid()))
                    .redirectErrorStream(true).start();
            if (!kill.waitFor(10, TimeUnit.SECONDS) || kill.exitValue() != 0) {
                throw new IllegalStateException("kill -" + signal + " " + this + " failed");
            }
        } catch (IOException e) {
            throw new UncheckedIOException("cannot run kill -" + signal, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted", e);
        }
    }

    long pid() {
        return process.pid();
    }

    Path log() {
        return log;
    }

    private boolean awaitExit(Duration timeout) {
        try {
            return process.waitFor(timeout.toMillis(), TimeUnit.MILLISECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return false;
        }
    }

    @Override
    public void close() {
        if (process.isAlive()) {
            kill();
        }
    }

    @Override
    public String toString() {
        return name + " (pid " + process.pid() + ")";
    }
}
