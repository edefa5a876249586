package dev.cairn.sidecar.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.CheckpointType;
import dev.cairn.sidecar.hook.CheckpointAbort;
import dev.cairn.sidecar.hook.CheckpointCompletion;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotHook;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.function.Function;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** How snapshots and notifications reach the worker's hook, on their own threads, without Kafka. */
class HookRunnerTest {

    private static final Duration LONG = Duration.ofMinutes(1);

    /** Records every outcome reported by the runner. */
    private final List<String> outcomes = new CopyOnWriteArrayList<>();
    private final HookRunner.Outcomes recorder = new HookRunner.Outcomes() {
        @Override
        public void succeeded(long checkpointId, SnapshotResult result) {
            outcomes.add("succeeded " + checkpointId + " " + result.location());
        }

        @Override
        public void failed(long checkpointId, Throwable error) {
            outcomes.add("failed " + checkpointId + " " + error.getClass().getSimpleName());
        }

        @Override
        public void timedOut(long checkpointId) {
            outcomes.add("timed out " + checkpointId);
        }
    };

    /** A hook whose snapshot behaviour each test chooses; it records notifications. */
    private static class ScriptedHook implements SnapshotHook {
        final Function<SnapshotRequest, CompletionStage<SnapshotResult>> snapshots;
        final List<String> calls = new CopyOnWriteArrayList<>();

        ScriptedHook(Function<SnapshotRequest, CompletionStage<SnapshotResult>> snapshots) {
            this.snapshots = snapshots;
        }

        @Override
        public CompletionStage<SnapshotResult> snapshot(SnapshotRequest request) {
            calls.add("snapshot " + request.checkpointId());
            return snapshots.apply(request);
        }

        @Override
        public void notifyComplete(long checkpointId, long lastSubsumedId) {
            calls.add("complete " + checkpointId + " " + lastSubsumedId);
        }

        @Override
        public void notifyAborted(long checkpointId, long latestCompletedId) {
            calls.add("aborted " + checkpointId + " " + latestCompletedId);
        }

        @Override
        public void restore(Optional<RestorePoint> from) {
        }

        @Override
        public void discardState(DiscardedState state) {
            calls.add("discard " + state.location());
        }
    }

    private HookRunner runner;

    private HookRunner runnerFor(SnapshotHook hook) {
        runner = new HookRunner(hook, "test", "job", recorder);
        return runner;
    }

    @AfterEach
    void closeRunner() {
        if (runner != null) {
            runner.close(Duration.ofSeconds(1));
        }
    }

    private static SnapshotRequest request(long id) {
        return new SnapshotRequest(id, 1_000, CheckpointType.CHECKPOINT, "file:///cp/chk-" + id, "job", "map", 0);
    }

    @Test
    void shouldReportTheResultWhenTheHooksStageCompletes() {
        Map<Long, CompletableFuture<SnapshotResult>> pending = new ConcurrentHashMap<>();
        ScriptedHook hook = new ScriptedHook(r -> pending.computeIfAbsent(r.checkpointId(),
                id -> new CompletableFuture<>()));
        runnerFor(hook).snapshot(request(1), LONG);
        await().until(() -> pending.containsKey(1L));
        assertThat(outcomes).isEmpty();

        pending.get(1L).complete(SnapshotResult.of("file:///s/1", 5));

        await().until(() -> outcomes.contains("succeeded 1 file:///s/1"));
        assertThat(outcomes).hasSize(1);
    }

    @Test
    void shouldReportAFailureWhenTheHookThrowsOrReturnsNoStage() {
        ScriptedHook hook = new ScriptedHook(r -> {
            if (r.checkpointId() == 1) {
                throw new IllegalStateException("broken");
            }
            return null;
        });
        runnerFor(hook).snapshot(request(1), LONG);
        await().until(() -> outcomes.contains("failed 1 IllegalStateException"));

        runner.snapshot(request(2), LONG);

        await().until(() -> outcomes.contains("failed 2 IllegalStateException"));
    }

    @Test
    void shouldReportATimeoutAndCancelTheStageWhenASnapshotOutlivesItsTimeout() {
        CompletableFuture<SnapshotResult> never = new CompletableFuture<>();
        runnerFor(new ScriptedHook(r -> never)).snapshot(request(1), Duration.ofMillis(50));
        await().until(() -> outcomes.contains("timed out 1"));

        runner.cancel(1);

        await().until(() -> outcomes.contains("failed 1 CancellationException"));
        assertThat(never).isCancelled();
    }

    @Test
    void shouldInterruptTheBlockedSnapshotWhenCancelled() {
        CountDownLatch entered = new CountDownLatch(1);
        runnerFor(new ScriptedHook(r -> {
            entered.countDown();
            try {
                new CountDownLatch(1).await();
                return CompletableFuture.completedFuture(SnapshotResult.of("file:///never", 0));
            } catch (InterruptedException e) {
                throw new IllegalStateException("interrupted", e);
            }
        })).snapshot(request(1), LONG);
        await().until(() -> entered.getCount() == 0);

        runner.cancel(1);

        await().until(() -> outcomes.contains("failed 1 IllegalStateException"));
    }

    @Test
    void shouldNeverCallTheHookAndReportCancelledWhenCancelledBeforeItStarted() {
        CountDownLatch release = new CountDownLatch(1);
        ScriptedHook hook = new ScriptedHook(r -> {
            if (r.checkpointId() == 1) {
                awaitUninterruptibly(release);
            }
            return CompletableFuture.completedFuture(SnapshotResult.of("file:///s/" + r.checkpointId(), 0));
        });
        runnerFor(hook).snapshot(request(1), LONG);
        await().until(() -> hook.calls.contains("snapshot 1"));
        runner.snapshot(request(2), LONG);

        runner.cancel(2);
        release.countDown();

        await().until(() -> outcomes.contains("failed 2 CancellationException")
                && outcomes.contains("succeeded 1 file:///s/1"));
        assertThat(hook.calls).doesNotContain("snapshot 2");
    }

    @Test
    void shouldPassNotificationsOnInOrderWhenASnapshotIsStuck() {
        CountDownLatch release = new CountDownLatch(1);
        ScriptedHook hook = new ScriptedHook(r -> {
            awaitUninterruptibly(release);
            return CompletableFuture.completedFuture(SnapshotResult.of("file:///s", 0));
        });
        runnerFor(hook).snapshot(request(3), LONG);
        await().until(() -> hook.calls.contains("snapshot 3"));

        runner.notifyComplete(CheckpointCompletion.of(1, -1));
        runner.discardState(new DiscardedState(0, "file:///late", 1, AckDiscardStatus.LATE, "late"));
        runner.notifyAborted(CheckpointAbort.of(2, 1));

        await().until(() -> hook.calls.size() == 4);
        assertThat(hook.calls).containsExactly("snapshot 3", "complete 1 -1", "discard file:///late", "aborted 2 1");
        release.countDown();
    }

    @Test
    void shouldCancelTheRunningSnapshotWithoutReportingItWhenClosing() {
        CompletableFuture<SnapshotResult> never = new CompletableFuture<>();
        ScriptedHook hook = new ScriptedHook(r -> never);
        runnerFor(hook).snapshot(request(1), LONG);
        await().until(() -> hook.calls.contains("snapshot 1"));

        runner.close(Duration.ofSeconds(1));

        await().until(never::isCancelled);
        assertThat(outcomes).isEmpty();
    }

    @Test
    void shouldPassTheStopFlagsToTheRecordTakingNotificationsWhenTheHookOverridesThem() {
        List<Object> received = new CopyOnWriteArrayList<>();
        ScriptedHook hook = new ScriptedHook(r -> new CompletableFuture<>()) {
            @Override
            public void notifyComplete(CheckpointCompletion completion) {
                received.add(completion);
            }

            @Override
            public void notifyAborted(CheckpointAbort abort) {
                received.add(abort);
            }
        };

        runnerFor(hook).notifyComplete(new CheckpointCompletion(9, 8, true, true));
        runner.notifyAborted(new CheckpointAbort(10, 9, true));

        await().until(() -> received.size() == 2);
        assertThat(received).containsExactly(new CheckpointCompletion(9, 8, true, true),
                new CheckpointAbort(10, 9, true));
    }

    @Test
    void shouldPassLaterNotificationsOnWhenOneFails() {
        ScriptedHook hook = new ScriptedHook(r -> new CompletableFuture<>()) {
            @Override
            public void notifyComplete(long checkpointId, long lastSubsumedId) {
                super.notifyComplete(checkpointId, lastSubsumedId);
                throw new IllegalStateException("commit failed");
            }
        };
        runnerFor(hook).notifyComplete(CheckpointCompletion.of(1, -1));
        runner.notifyAborted(CheckpointAbort.of(2, 1));

        await().until(() -> hook.calls.contains("aborted 2 1"));
    }

    private static void awaitUninterruptibly(CountDownLatch latch) {
        boolean interrupted = false;
        while (latch.getCount() > 0) {
            try {
                latch.await();
            } catch (InterruptedException e) {
                interrupted = true;
            }
        }
        if (interrupted) {
            Thread.currentThread().interrupt();
        }
    }
}
