package dev.cairn.kafka.test;

import java.time.Duration;
import java.util.List;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import java.util.stream.Collectors;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Fails a test class that leaves an OS process of its own running: after the class, every process the test JVM
 * started during it (a coordinator jar, a Kafka node, a shell and what it started, a browser) must be gone within
 * {@link #GRACE}. What is left is killed, with its descendants, and the class fails naming each command line, so a
 * leak is found by the test that made it and never outlives the build. Registered for every test class of every
 * module by JUnit's extension auto-detection (the parent pom enables it; this jar's
 * {@code META-INF/services/org.junit.jupiter.api.extension.Extension} names this class).
 */
public final class ChildProcessGuard implements BeforeAllCallback, AfterAllCallback {

    /** How long a process may take to exit after its test class ended. */
    public static final Duration GRACE = Duration.ofSeconds(15);

    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(
            ChildProcessGuard.class);
    private static final String BEFORE = "descendants-before";

    @Override
    public void beforeAll(ExtensionContext context) {
        context.getStore(NAMESPACE).put(BEFORE, descendantPids());
    }

    @Override
    public void afterAll(ExtensionContext context) {
        @SuppressWarnings("unchecked")
        Set<Long> before = context.getStore(NAMESPACE).getOrDefault(BEFORE, Set.class, Set.of());
        List<String> left = killLeftovers(before, GRACE);
        if (!left.isEmpty()) {
            throw new AssertionError(context.getDisplayName() + " left " + left.size() + " process(es) running "
                    + GRACE.toSeconds() + " s after its last test (now killed); stop every process a test starts, "
                    + "with its descendants:\n  " + String.join("\n  ", left));
        }
    }

    /**
     * Waits up to {@code grace} for the test JVM's descendants that are not in {@code before} to exit; kills those
     * still running, and returns a description of each (pid and command line), empty when none was left.
     */
    static List<String> killLeftovers(Set<Long> before, Duration grace) {
        List<ProcessHandle> started = ProcessHandle.current().descendants()
                .filter(p -> !before.contains(p.pid())).toList();
        try {
            CompletableFuture.allOf(started.stream().map(ProcessHandle::onExit).toArray(CompletableFuture[]::new))
                    .get(grace.toMillis(), TimeUnit.MILLISECONDS);
            return List.of();
        } catch (TimeoutException e) {
            List<ProcessHandle> alive = started.stream().filter(ProcessHandle::isAlive).toList();
            List<String> described = alive.stream().map(ChildProcessGuard::describe).toList();
            alive.forEach(ProcessTrees::kill);
            return described;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the test's processes to exit", e);
        } catch (ExecutionException e) {
            throw new IllegalStateException("cannot wait for the test's processes to exit", e);
        }
    }

    /** The pids of the test JVM's descendants now. */
    static Set<Long> descendantPids() {
        return ProcessHandle.current().descendants().map(ProcessHandle::pid).collect(Collectors.toSet());
    }

    private static String describe(ProcessHandle process) {
        ProcessHandle.Info info = process.info();
        return "pid " + process.pid() + ": " + info.commandLine().or(info::command).orElse("(command unknown)");
    }
}
