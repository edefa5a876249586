package dev.cairn.sidecar.it;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.tuple;
import static org.awaitility.Awaitility.await;

import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.JobSpec;
import dev.cairn.events.StateDiscarded;
import dev.cairn.sidecar.hook.DiscardedState;
import dev.cairn.sidecar.hook.SharedObject;
import dev.cairn.sidecar.hook.SnapshotDeclinedException;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.hook.SnapshotResult;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;

/**
 * Sidecars with Java hooks against the real coordinator on a real broker: the states of a subsumed or aborted
 * checkpoint reach the workers that wrote them, with the reason, shared objects only once nothing refers to them.
 */
class SidecarStateDiscardIT extends SidecarTestBase {

    @Test
    void shouldHandTheWorkerCheckpointOnesStateAsSubsumedWhenCheckpointTwoCompletesWithOneRetained() {
        // given a job that retains one checkpoint, and workers that ack at once
        String job = CoordinatorTestBed.uniqueJobId("subsumed");
        bed.register(retainingOne(job));
        RecordingHook source = RecordingHook.acking();
        RecordingHook sink = RecordingHook.acking();
        sidecars.start(job, "source", 0, source);
        sidecars.start(job, "sink", 0, sink);

        // when checkpoint 2 completes
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 2);

        // then each worker is handed its own state of checkpoint 1, subsumed
        String sinkState = acknowledged(job, 1, "sink");
        String sourceState = acknowledged(job, 1, "source");
        await().atMost(CoordinatorTestBed.WAIT).until(() -> hasDiscard(sink, 1) && hasDiscard(source, 1));
        assertThat(discardsOf(sink, 1)).extracting(DiscardedState::location, DiscardedState::reason,
                DiscardedState::shared, DiscardedState::status)
                .containsExactly(tuple(sinkState, DiscardReason.SUBSUMED, false, null));
        assertThat(discardsOf(source, 1)).extracting(DiscardedState::location).containsExactly(sourceState);
    }

    @Test
    void shouldHandOutASharedObjectOnlyWhenNoRetainedCheckpointReusesItAnyMore() {
        // given a sink whose snapshots write one shared object each and reuse the one of the latest completed
        String job = CoordinatorTestBed.uniqueJobId("shared");
        bed.register(retainingOne(job));
        RecordingHook sink = RecordingHook.answering(request -> CompletableFuture.completedFuture(
                incremental(request)));
        sidecars.start(job, "source", 0, RecordingHook.acking());
        sidecars.start(job, "sink", 0, sink);

        // when checkpoint 3 completes, subsuming 2, which alone still reused checkpoint 1's shared object
        bed.awaitJournal(CheckpointCompleted.class, c -> c.getJobId().equals(job) && c.getCheckpointId() == 3);
        StateDiscarded two = bed.awaitJournal(StateDiscarded.class,
                d -> d.getJobId().equals(job) && d.getCheckpointId() == 2);

        // then the coordinator discarded that object with 2, and kept 2's own shared object, which 3 reuses
        assertThat(two.getObjects()).filteredOn(DiscardedObject::getShared).extracting(DiscardedObject::getLocation)
                .containsExactly(sharedObject(job, 1));
        // and the sink's worker is handed it as a shared object
        await().atMost(CoordinatorTestBed.WAIT).until(() -> discardsOf(sink, 2).size() == 2);
        assertThat(discardsOf(sink, 2)).extracting(DiscardedState::location, DiscardedState::shared)
                .containsExactlyInAnyOrder(tuple(acknowledged(job, 2, "sink"), false), tuple(sharedObject(job, 1),
                        true));
    }

    @Test
    void shouldHandTheAcknowledgedStateToTheWorkerAsAbortedWhenAnotherTaskDeclinesTheCheckpoint() {
        // given a sink that declines checkpoint 2 only once the source acknowledged it
        String job = CoordinatorTestBed.uniqueJobId("aborted");
        bed.register(retainingOne(job));
        CompletableFuture<SnapshotResult> sinksTwo = new CompletableFuture<>();
        RecordingHook source = RecordingHook.acking();
        RecordingHook sink = RecordingHook.answering(request -> request.checkpointId() == 2 ? sinksTwo
                : CompletableFuture.completedFuture(RecordingHook.stateOf(request)));
        sidecars.start(job, "source", 0, source);
        sidecars.start(job, "sink", 0, sink);
        String sourceState = acknowledged(job, 2, "source");

        // when
        sinksTwo.completeExceptionally(new SnapshotDeclinedException(CheckpointFailureReason.CHECKPOINT_DECLINED,
                "the sink cannot commit now"));

        // then checkpoint 2 aborts, and the source's worker is handed the state it had acknowledged
        bed.awaitJournal(CheckpointAborted.class, a -> a.getJobId().equals(job) && a.getCheckpointId() == 2);
        await().atMost(CoordinatorTestBed.WAIT).until(() -> hasDiscard(source, 2));
        assertThat(discardsOf(source, 2)).extracting(DiscardedState::location, DiscardedState::reason)
                .containsExactly(tuple(sourceState, DiscardReason.ABORTED));
        assertThat(discardsOf(sink, 2)).as("the sink acknowledged nothing").isEmpty();
    }

    private static JobSpec retainingOne(String job) {
        return Events.jobSpec(job, "source", "sink")
                .setConfig(Events.config(150, 10_000).setRetained(1).setTolerableFailures(100).build()).build();
    }

    /** The location of the state {@code task}'s subtask 0 acknowledged for checkpoint {@code id}, once it did. */
    private static String acknowledged(String job, long id, String task) {
        return bed.awaitJournal(CheckpointAcknowledged.class, a -> a.getJobId().equals(job)
                && a.getCheckpointId() == id && a.getTaskId().equals(task)).getStateHandle().getLocation();
    }

    /**
     * An incremental snapshot: its own object, one shared object written for it, and the shared object of the latest
     * completed checkpoint reused.
     */
    private static SnapshotResult incremental(SnapshotRequest request) {
        List<SharedObject> shared = new ArrayList<>();
        shared.add(SharedObject.written(sharedObject(request.jobId(), request.checkpointId()), 10));
        if (request.latestCompletedId() > 0) {
            shared.add(SharedObject.reused(sharedObject(request.jobId(), request.latestCompletedId()), 10));
        }
        return RecordingHook.stateOf(request).withShared(shared);
    }

    private static String sharedObject(String job, long checkpointId) {
        return Events.STORAGE + "/" + job + "/shared/sink-0/sst-" + checkpointId;
    }

    private static boolean hasDiscard(RecordingHook hook, long checkpointId) {
        return !discardsOf(hook, checkpointId).isEmpty();
    }

    private static List<DiscardedState> discardsOf(RecordingHook hook, long checkpointId) {
        return hook.discards().stream().filter(d -> d.checkpointId() == checkpointId).toList();
    }
}
