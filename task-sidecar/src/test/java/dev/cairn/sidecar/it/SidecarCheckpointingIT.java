package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckDiscardStatus;
import dev.cairn.events.AckDiscarded;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointDeclined;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.SubtaskState;
import dev.cairn.sidecar.app.Sidecar;
import dev.cairn.sidecar.app.SidecarConfigCopies;
import dev.cairn.sidecar.it.RecordingHook.Notification;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** Sidecars with Java hooks against the real coordinator on a real broker: acks, declines, expiries. */
class SidecarCheckpointingIT extends SidecarTestBase {

    @Test
    void shouldCompleteFiveCheckpointsAndTellEverySidecarWhenThreeSidecarsAck() {
        // given a job of three tasks, each with a sidecar whose worker acks at once
        String job = CoordinatorTestBed.uniqueJobId("three");
        bed.register(Events.job(job, 150, 10_000, "source", "map", "sink"));
        Map<String, RecordingHook> hooks = Map.of("source", RecordingHook.acking(), "map", RecordingHook.acking(),
                "sink", RecordingHook.acking());
        Map<String, Sidecar> started = hooks.entrySet().stream().collect(Collectors.toMap(Map.Entry::getKey,
                e -> sidecars.start(job, e.getKey(), 0, e.getValue())));

        // when five checkpoints have completed and every worker was told
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 5);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> hooks.values().stream()
                .allMatch(hook -> hook.completions().size() >= 5));

        // then checkpoints 1..5 completed in order, with every sidecar's state, and nothing was aborted
        List<Notification> expected = List.of(new Notification(1, -1), new Notification(2, 1),
                new Notification(3, 2), new Notification(4, 3), new Notification(5, 4));
        hooks.forEach((task, hook) -> {
            assertThat(hook.completions().subList(0, 5)).as(task).isEqualTo(expected);
            assertThat(hook.snapshots().subList(0, 5)).as(task).extracting(r -> r.checkpointId())
                    .containsExactly(1L, 2L, 3L, 4L, 5L);
            assertThat(hook.restores()).as(task).containsExactly(Optional.empty());
            assertThat(hook.aborts()).as(task).isEmpty();
        });
        CheckpointCompleted fifth = bed.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() == 5);
        assertThat(bed.states(fifth)).extracting(SubtaskState::getTaskId, SubtaskState::getAttemptId)
                .containsExactlyInAnyOrder(
                        tuple("source", started.get("source").attemptId()),
                        tuple("map", started.get("map").attemptId()),
                        tuple("sink", started.get("sink").attemptId()));
        assertThat(bed.states(fifth)).extracting(s -> s.getHandle().getLocation())
                .contains("file:///cairn-it/" + job + "/chk-5/sink-0");
        assertThat(fifth.getTotalSizeBytes()).isEqualTo(3_000);
        CheckpointAcknowledged sinkAck = bed.awaitJournal(CheckpointAcknowledged.class,
                a -> a.getJobId().equals(job) && a.getCheckpointId() == 5 && a.getTaskId().equals("sink"));
        assertThat(sinkAck.getMetrics().getStartDelayMs()).isBetween(0L, 10_000L);
        assertThat(bed.journal(CheckpointAborted.class, a -> a.getJobId().equals(job))).isEmpty();
    }

    @Test
    void shouldAbortTheCheckpointAndCompleteTheNextWhenAHookDeclines() {
        // given a sink whose worker declines checkpoint 2
        String job = CoordinatorTestBed.uniqueJobId("decline");
        bed.register(Events.job(job, 150, 10_000, "source", "sink"));
        RecordingHook source = RecordingHook.acking();
        RecordingHook sink = RecordingHook.declining(id -> id == 2,
                "the sink's transaction could not be pre-committed");
        sidecars.start(job, "source", 0, source);
        Sidecar sinkSidecar = sidecars.start(job, "sink", 0, sink);

        // when
        CheckpointAborted aborted = bed.awaitJournal(CheckpointAborted.class,
                a -> a.getJobId().equals(job) && a.getCheckpointId() == 2);
        CheckpointCompleted next = bed.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() == 3);

        // then the decline carried the worker's reason, and both workers learned the outcomes
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        CheckpointDeclined declined = bed.awaitJournal(CheckpointDeclined.class, d -> d.getJobId().equals(job));
        assertThat(declined.getCheckpointId()).isEqualTo(2);
        assertThat(declined.getTaskId()).isEqualTo("sink");
        assertThat(declined.getAttemptId()).isEqualTo(sinkSidecar.attemptId());
        assertThat(declined.getMessage()).isEqualTo("the sink's transaction could not be pre-committed");
        assertThat(bed.states(next)).hasSize(2);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> source.completions().contains(new Notification(3, 1))
                && sink.completions().contains(new Notification(3, 1)));
        assertThat(source.aborts()).containsExactly(new Notification(2, 1));
        assertThat(sink.aborts()).containsExactly(new Notification(2, 1));
        assertThat(bed.journal(CheckpointDeclined.class, d -> d.getJobId().equals(job))).hasSize(1);
    }

    @Test
    void shouldExpireTheCheckpointAndDiscardTheLateAckWhenTheHookIsSlowerThanTheTimeout() {
        // given a map whose worker takes 3 s for checkpoint 1, twice the checkpoint timeout
        String job = CoordinatorTestBed.uniqueJobId("slow");
        bed.register(Events.job(job, 200, 1_500, "source", "map"));
        RecordingHook map = RecordingHook.slow(id -> id == 1, Duration.ofSeconds(3));
        sidecars.start(job, "source", 0, RecordingHook.acking());
        Sidecar mapSidecar = sidecars.start(job, "map", 0, map);

        // when
        CheckpointAborted expired = bed.awaitJournal(CheckpointAborted.class,
                a -> a.getJobId().equals(job) && a.getCheckpointId() == 1);
        AckDiscarded late = bed.awaitJournal(AckDiscarded.class,
                d -> d.getJobId().equals(job) && d.getCheckpointId() == 1);

        // then checkpoint 1 expired, the worker heard of it while still snapshotting, and its late ack was
        // discarded with the state handle to clean up
        assertThat(expired.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
        assertThat(late.getStatus()).isEqualTo(AckDiscardStatus.LATE);
        assertThat(late.getAttemptId()).isEqualTo(mapSidecar.attemptId());
        assertThat(late.getStateHandle().getLocation()).isEqualTo("file:///cairn-it/" + job + "/chk-1/map-0");
        List<String> calls = map.calls();
        assertThat(calls.indexOf("aborted 1 -1"))
                .isBetween(calls.indexOf("snapshot 1"), calls.indexOf("snapshot done 1"));
        assertThat(bed.journal(CheckpointDeclined.class, d -> d.getJobId().equals(job))).isEmpty();
        // and checkpointing goes on
        CheckpointCompleted later = bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job));
        assertThat(later.getCheckpointId()).isGreaterThan(1);
    }
    @Test
    void shouldDeclineCancelAndCompleteTheNextWhenASnapshotOutlivesTheSidecarsTimeout() {
        // given a sink whose worker never finishes checkpoint 1, beside a sidecar that waits 500 ms for a snapshot
        String job = CoordinatorTestBed.uniqueJobId("stuck");
        bed.register(Events.job(job, 150, 30_000, "source", "sink"));
        RecordingHook sink = RecordingHook.stuck(id -> id == 1);
        sidecars.start(job, "source", 0, RecordingHook.acking());
        sidecars.start(SidecarConfigCopies.withSnapshotTimeout(sidecars.config(job, "sink", 0), Duration.ofMillis(500)),
                sink);

        // when
        CheckpointAborted aborted = bed.awaitJournal(CheckpointAborted.class,
                a -> a.getJobId().equals(job) && a.getCheckpointId() == 1);
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 2);

        // then the sidecar declined it on its own, cancelled the stuck snapshot, and moved on
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_DECLINED);
        CheckpointDeclined declined = bed.awaitJournal(CheckpointDeclined.class, d -> d.getJobId().equals(job));
        assertThat(declined.getMessage()).contains("snapshot timeout of 500 ms");
        await().atMost(CoordinatorTestBed.WAIT).until(() -> sink.calls().contains("snapshot cancelled 1"));
        assertThat(sink.calls()).containsSubsequence("snapshot 1", "snapshot 2");
        assertThat(bed.journal(CheckpointDeclined.class, d -> d.getJobId().equals(job))).hasSize(1);
    }
}
