package dev.cairn.kafka.test;

import java.time.Duration;
import java.util.List;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;

/**
 * Stopping an OS process a test started together with everything it started: what tests and
 * {@link ChildProcessGuard} use, so that no process outlives the test that made it.
 */
public final class ProcessTrees {

    private ProcessTrees() {
    }

    /**
     * Sends SIGTERM to {@code process} and waits up to {@code grace} for it to exit; kills what is then still running
     * of it and its descendants.
     *
     * @return whether the process exited on SIGTERM within {@code grace}
     */
    public static boolean stop(ProcessHandle process, Duration grace) {
        List<ProcessHandle> descendants = process.descendants().toList();
        process.destroy();
        boolean stopped = exited(process, grace);
        descendants.stream().filter(ProcessHandle::isAlive).forEach(ProcessHandle::destroyForcibly);
        if (!stopped) {
            kill(process);
        }
        return stopped;
    }

    /** SIGKILL to {@code process} and every descendant it has now; waits briefly for the process to exit. */
    public static void kill(ProcessHandle process) {
        process.descendants().forEach(ProcessHandle::destroyForcibly);
        process.destroyForcibly();
        exited(process, Duration.ofSeconds(10));
    }

    private static boolean exited(ProcessHandle process, Duration within) {
        try {
            process.onExit().get(within.toMillis(), TimeUnit.MILLISECONDS);
            return true;
        } catch (TimeoutException e) {
            return false;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return !process.isAlive();
        } catch (ExecutionException e) {
            return !process.isAlive();
        }
    }
}
