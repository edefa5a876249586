package dev.cairn.sidecar.kafka;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.DiscardReason;
import dev.cairn.events.DiscardedObject;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateDiscarded;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.sidecar.core.SidecarAction;
import dev.cairn.sidecar.core.SidecarCore;
import dev.cairn.sidecar.core.TaskAttempt;
import dev.cairn.sidecar.hook.RestorePoint;
import dev.cairn.sidecar.hook.SnapshotRequest;
import dev.cairn.sidecar.kafka.StartupReads.Deadline;
import dev.cairn.sidecar.kafka.StartupReads.RestoreRecords;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * A sidecar that starts while a completion is visible on the control topic but not yet on the completed topic (Kafka
 * shows the one transaction that wrote both partition by partition): the reads are faked, the rest of start-up's
 * restore is the real one.
 */
class StartupRestoreTest {

    private static final String JOB = "orders";
    private static final String TASK = "sink";
    private static final RuntimeSettings SETTINGS = new RuntimeSettings("localhost:9092", CairnTopics.defaults(), JOB,
            TASK, 0, Duration.ofSeconds(5), Duration.ofSeconds(30), Map.of(), null);

    static {
        // builders fill unset fields with Avro defaults; Avro trusts Cairn's generated classes once a serde exists
        CairnSerdes.control();
    }

    @Test
    void shouldRestoreTheNewerCheckpointWhenTheCompletedTopicCatchesUpWithControl() {
        // given control shows checkpoint 5 completed, and the completed topic shows 4 twice before it shows 5
        FakeStartupSource reads = new FakeStartupSource(List.of(completed(4), completed(5)), retained(4), retained(4),
                retained(5));
        RecordingRestoreHook hook = new RecordingRestoreHook();

        // when
        Startup.Restored restored = Startup.restore(hook, SETTINGS, reads, Deadline.after(Duration.ofSeconds(30)),
                Optional.empty());

        // then the worker restores from 5, never from 4
        RestorePoint five = new RestorePoint(5, location(5), 100);
        assertThat(hook.restores).containsExactly(Optional.of(five));
        assertThat(restored.point()).contains(five);
        assertThat(reads.completedReads).isEqualTo(3);
        // and the first snapshot request knows that 5 completed
        assertThat(firstRequest(restored).latestCompletedId()).isEqualTo(5);
    }

    @Test
    void shouldFailTheStartUpNamingBothCheckpointsWhenTheCompletedTopicNeverCatchesUp() {
        // given control shows 5 completed, the completed topic shows 4 on every read
        FakeStartupSource reads = new FakeStartupSource(List.of(completed(5)), retained(4));
        RecordingRestoreHook hook = new RecordingRestoreHook();

        // when / then
        assertThatThrownBy(() -> Startup.restore(hook, SETTINGS, reads, Deadline.after(Duration.ofMillis(500)),
                Optional.empty()))
                .isInstanceOf(IllegalStateException.class)
                .hasMessageContaining("checkpoint 5").hasMessageContaining("checkpoint 4")
                .hasMessageContaining("not restoring the worker behind");
        assertThat(hook.restores).isEmpty();
        assertThat(reads.completedReads).isGreaterThan(1);
    }

    @Test
    void shouldRestoreAtOnceWhenControlShowsNothingNewerThanTheCompletedTopic() {
        // given
        FakeStartupSource reads = new FakeStartupSource(List.of(completed(3), completed(4)), retained(4));
        RecordingRestoreHook hook = new RecordingRestoreHook();

        // when
        Startup.Restored restored = Startup.restore(hook, SETTINGS, reads, Deadline.after(Duration.ofSeconds(30)),
                Optional.empty());

        // then
        assertThat(hook.restores).containsExactly(Optional.of(new RestorePoint(4, location(4), 100)));
        assertThat(reads.completedReads).isEqualTo(1);
        assertThat(restored.latestCompletedOnControl()).isEqualTo(4);
    }

    @Test
    void shouldTellTheFirstRequestOfTheNewerSavepointWhenOnlyControlShowsIt() {
        // given a plain savepoint 5 (not a restore point) completed after the restore point 4
        CheckpointCompleted savepoint = completed(5);
        savepoint.setType(CheckpointType.SAVEPOINT);
        FakeStartupSource reads = new FakeStartupSource(List.of(completed(4), savepoint), retained(4));
        RecordingRestoreHook hook = new RecordingRestoreHook();

        // when
        Startup.Restored restored = Startup.restore(hook, SETTINGS, reads, Deadline.after(Duration.ofSeconds(30)),
                Optional.empty());

        // then the worker restores from 4 at once, and its first request knows that 5 completed
        assertThat(hook.restores).containsExactly(Optional.of(new RestorePoint(4, location(4), 100)));
        assertThat(reads.completedReads).isEqualTo(1);
        assertThat(firstRequest(restored).latestCompletedId()).isEqualTo(5);
    }

    @Test
    void shouldSkipOtherJobsCompletionsWhenItLooksAtControl() {
        // given another job's completion 9 on the same control partition
        CheckpointCompleted otherJob = completed(9);
        otherJob.setJobId("payments");
        FakeStartupSource reads = new FakeStartupSource(List.of(otherJob), retained(4));

        // when
        Startup.Restored restored = Startup.restore(new RecordingRestoreHook(), SETTINGS, reads,
                Deadline.after(Duration.ofSeconds(30)),
                Optional.empty());

        // then
        assertThat(restored.point()).contains(new RestorePoint(4, location(4), 100));
        assertThat(restored.latestCompletedOnControl()).isEqualTo(SnapshotRequest.NO_COMPLETED_CHECKPOINT);
    }

    @Test
    void shouldPassOnTheDiscardsControlShowedWhenItRestores() {
        // given a discard of the job shortly before the position
        StateDiscarded subsumed = StateDiscarded.newBuilder().setJobId(JOB).setCheckpointId(3)
                .setType(CheckpointType.CHECKPOINT).setReason(DiscardReason.SUBSUMED).setMessage("subsumed")
                .setPart(0).setParts(1).setObjects(List.of(DiscardedObject.newBuilder().setTaskId(TASK)
                        .setSubtaskIndex(0).setLocation(location(3)).setSizeBytes(100L).build()))
                .setTimestampMs(1).build();
        FakeStartupSource reads = new FakeStartupSource(List.of(completed(4)), List.of(subsumed), retained(4));

        // when
        Startup.Restored restored = Startup.restore(new RecordingRestoreHook(), SETTINGS, reads,
                Deadline.after(Duration.ofSeconds(30)), Optional.empty());

        // then the core set up as the sidecar sets it up hands the subtask's object to the worker
        SidecarCore core = new SidecarCore(new TaskAttempt(JOB, TASK, 0, "attempt-new"), Duration.ofSeconds(5),
                restored.point());
        assertThat(core.discardedBeforeStart(restored.discardsOnControl()))
                .extracting(a -> ((SidecarAction.DiscardState) a).state().location())
                .containsExactly(location(3));
    }

    @Test
    void shouldStartAJobRegisteredAgainAfterARemovalAfreshAtOnceWhateverTheRemovedJobCompletedOnControl() {
        // given the removed job's checkpoints 4 and 5 are still on control, and the completed topic shows the removal:
        // no checkpoint, and the ids up to 5 used by the removed job
        RestoreRecords removal = new RestoreRecords(Optional.of(RetainedCheckpoints.newBuilder().setJobId(JOB)
                .setCheckpoints(List.of()).setChosenAfterId(5).build()), Map.of());
        FakeStartupSource reads = new FakeStartupSource(List.of(completed(4), completed(5)), removal);
        RecordingRestoreHook hook = new RecordingRestoreHook();

        // when
        Startup.Restored restored = Startup.restore(hook, SETTINGS, reads, Deadline.after(Duration.ofMillis(500)),
                Optional.empty());

        // then the worker starts with nothing to restore, after one read, knowing of no completion
        assertThat(hook.restores).containsExactly(Optional.empty());
        assertThat(reads.completedReads).isEqualTo(1);
        assertThat(restored.latestCompletedOnControl()).isEqualTo(SnapshotRequest.NO_COMPLETED_CHECKPOINT);
    }

    /** The snapshot request a core set up as the sidecar sets it up asks for the next trigger. */
    private static SnapshotRequest firstRequest(Startup.Restored restored) {
        SidecarCore core = new SidecarCore(new TaskAttempt(JOB, TASK, 0, "attempt-new"), Duration.ofSeconds(5),
                restored.point());
        core.completedBeforeStart(restored.latestCompletedOnControl());
        CheckpointTriggered trigger = CheckpointTriggered.newBuilder().setJobId(JOB).setCheckpointId(6)
                .setTimestampMs(1_000).setType(CheckpointType.CHECKPOINT).setPeriodic(true).setForce(false)
                .setStorageLocation("file:///cp/" + JOB + "/chk-6").setPlan(List.of()).setAcksExpected(1)
                .setRoles(List.of()).setTimeoutAtMs(11_000).setOptions(SnapshotOptions.newBuilder().build()).build();
        return core.onControl(trigger, 1_010).stream().filter(SidecarAction.StartSnapshot.class::isInstance)
                .map(a -> ((SidecarAction.StartSnapshot) a).request()).findFirst()
                .orElseThrow(() -> new AssertionError("no snapshot started"));
    }

    private static String location(long id) {
        return "file:///cp/" + JOB + "/chk-" + id + "/" + TASK + "-0";
    }

    /** A version 1 completion of {@link #JOB}, as a sidecar decodes it: it lists the subtask states itself. */
    private static CheckpointCompleted completed(long id) {
        return CheckpointCompleted.newBuilder().setJobId(JOB).setCheckpointId(id).setType(CheckpointType.CHECKPOINT)
                .setTriggerTimestampMs(0).setCompletionTimestampMs(1).setStorageLocation("file:///cp/" + JOB)
                .setSubtaskStates(List.of(new SubtaskState(TASK, 0, "attempt-old",
                        StateHandle.newBuilder().setLocation(location(id)).setSizeBytes(100L).build(), -1)))
                .setTotalSizeBytes(100).setLastSubsumedId(id - 1).setOptions(SnapshotOptions.newBuilder().build())
                .build();
    }

    /** What the completed topic shows with {@code newest} as the job's newest retained checkpoint. */
    private static RestoreRecords retained(long newest) {
        return new RestoreRecords(Optional.of(RetainedCheckpoints.newBuilder().setJobId(JOB)
                .setCheckpoints(List.of(completed(newest - 1), completed(newest))).build()), Map.of());
    }
}
