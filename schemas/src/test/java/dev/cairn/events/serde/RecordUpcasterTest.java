package dev.cairn.events.serde;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.PlannedVertex;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.TaskRoles;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every rule of {@link RecordUpcaster}: a record written with an older frozen schema decodes in the current shape,
 * with the values its readers computed from the old shape before, and a record in the current shape passes
 * unchanged.
 */
class RecordUpcasterTest {

    /** Flink's defaults: what a trigger, completion or abort without options always meant. */
    private static final SnapshotOptions DEFAULTS = new SnapshotOptions(BackupType.FULL, SavepointFormat.CANONICAL,
            PostCheckpointAction.NONE, AlignmentType.ALIGNED, -1L);
    private static final SnapshotOptions STOP = new SnapshotOptions(BackupType.INCREMENTAL, SavepointFormat.NATIVE,
            PostCheckpointAction.TERMINATE, AlignmentType.UNALIGNED, 250L);

    private final AvroEventSerde<ControlEnvelope> control = CairnSerdes.control();
    private final AvroEventSerde<JournalEnvelope> journal = CairnSerdes.journal();

    @Test
    void shouldTakeAVersionOneTriggersAcksAndRolesFromItsPlan() {
        // given a plan: a source of 2 subtasks with the default roles, a sink of 3 not triggered, a task that
        // does not acknowledge
        CheckpointTriggered written = trigger(-1, List.of(), null).setPlan(List.of(
                new PlannedVertex("source", List.of("s0", "s1"), true, true, true),
                new PlannedVertex("sink", List.of("k0", "k1", "k2"), false, true, true),
                new PlannedVertex("log", List.of("l0"), true, false, false))).build();

        // when
        CheckpointTriggered read = (CheckpointTriggered) control.deserialize("cairn.control",
                FrozenSchemaWriter.encode(new ControlEnvelope(written), 1)).getEvent();

        // then the acks of the acknowledging subtasks, the roles that are not the default, the plan as written
        assertThat(read.getAcksExpected()).isEqualTo(5);
        assertThat(read.getRoles()).containsExactly(new TaskRoles("sink", false, true, true),
                new TaskRoles("log", true, false, false));
        assertThat(read.getPlan()).isEqualTo(written.getPlan());
        assertThat(read.getOptions()).isEqualTo(DEFAULTS);
    }

    @ParameterizedTest(name = "JournalEnvelope v{0}")
    @ValueSource(ints = {1, 2})
    void shouldTakeAVersionOneTriggersAcksFromItsPlanInTheJournal(int version) {
        CheckpointTriggered written = trigger(-1, List.of(), null).setPlan(List.of(
                new PlannedVertex("source", List.of("s0", "s1"), true, true, true))).build();

        CheckpointTriggered read = (CheckpointTriggered) journal.deserialize("cairn.journal",
                FrozenSchemaWriter.encode(new JournalEnvelope(written), version)).getEvent();

        assertThat(read.getAcksExpected()).isEqualTo(2);
        assertThat(read.getRoles()).isEmpty();
        assertThat(read.getOptions()).isEqualTo(DEFAULTS);
    }

    @Test
    void shouldGiveATriggerWrittenBeforeOptionsExistedTheDefaults() {
        // given a version 2 trigger: counts and roles, no options
        CheckpointTriggered written = trigger(3, List.of(new TaskRoles("sink", false, true, true)), null).build();

        // when
        CheckpointTriggered read = (CheckpointTriggered) control.deserialize("cairn.control",
                FrozenSchemaWriter.encode(new ControlEnvelope(written), 2)).getEvent();

        // then
        assertThat(read.getOptions()).isEqualTo(DEFAULTS);
        assertThat(read.getAcksExpected()).isEqualTo(3);
        assertThat(read.getRoles()).containsExactly(new TaskRoles("sink", false, true, true));
    }

    @Test
    void shouldGiveACompletionWrittenBeforeOptionsExistedTheDefaults() {
        CheckpointCompleted written = completion(CheckpointType.SAVEPOINT, null);

        CheckpointCompleted onControl = (CheckpointCompleted) control.deserialize("cairn.control",
                FrozenSchemaWriter.encode(new ControlEnvelope(written), 2)).getEvent();
        CheckpointCompleted inJournal = (CheckpointCompleted) journal.deserialize("cairn.journal",
                FrozenSchemaWriter.encode(new JournalEnvelope(written), 3)).getEvent();

        // then a savepoint of such a record is no stop's
        assertThat(onControl.getOptions()).isEqualTo(DEFAULTS);
        assertThat(inJournal.getOptions()).isEqualTo(DEFAULTS);
        assertThat(inJournal.getOptions().getPostCheckpointAction()).isEqualTo(PostCheckpointAction.NONE);
    }

    @Test
    void shouldGiveAnAbortWrittenBeforeOptionsExistedTheDefaults() {
        CheckpointAborted written = CheckpointAborted.newBuilder().setJobId("j").setCheckpointId(7)
                .setType(CheckpointType.SAVEPOINT).setReason(CheckpointFailureReason.CHECKPOINT_EXPIRED)
                .setMessage("expired").setLatestCompletedId(6).setTimestampMs(1).build();

        CheckpointAborted onControl = (CheckpointAborted) control.deserialize("cairn.control",
                FrozenSchemaWriter.encode(new ControlEnvelope(written), 2)).getEvent();
        CheckpointAborted inJournal = (CheckpointAborted) journal.deserialize("cairn.journal",
                FrozenSchemaWriter.encode(new JournalEnvelope(written), 3)).getEvent();

        assertThat(onControl.getOptions()).isEqualTo(DEFAULTS);
        assertThat(inJournal.getOptions()).isEqualTo(DEFAULTS);
    }

    @ParameterizedTest(name = "RetainedCheckpoints v{0}")
    @ValueSource(ints = {1, 2})
    void shouldGiveEveryRetainedCompletionWrittenBeforeOptionsExistedTheDefaults(int version) {
        RetainedCheckpoints written = RetainedCheckpoints.newBuilder().setJobId("j").setCheckpoints(List.of(
                completion(CheckpointType.CHECKPOINT, null), completion(CheckpointType.SAVEPOINT, null))).build();

        RetainedCheckpoints read = CairnSerdes.retained().deserialize("cairn.completed",
                FrozenSchemaWriter.encode(written, version));

        assertThat(read.getCheckpoints()).extracting(CheckpointCompleted::getOptions)
                .containsExactly(DEFAULTS, DEFAULTS);
    }

    @Test
    void shouldPassARecordInTheCurrentShapeUnchanged() {
        CheckpointTriggered trigger = trigger(3, List.of(new TaskRoles("sink", false, true, true)), STOP).build();
        CheckpointCompleted completion = completion(CheckpointType.SAVEPOINT, STOP);
        RetainedCheckpoints retained = RetainedCheckpoints.newBuilder().setJobId("j")
                .setCheckpoints(List.of(completion)).build();

        // written with the current schema
        assertThat(control.deserialize("t", control.serialize("t", new ControlEnvelope(trigger))).getEvent())
                .isEqualTo(trigger);
        assertThat(journal.deserialize("t", journal.serialize("t", new JournalEnvelope(completion))).getEvent())
                .isEqualTo(completion);
        // and with the first frozen versions that had its fields
        assertThat(control.deserialize("t", FrozenSchemaWriter.encode(new ControlEnvelope(trigger), 3)).getEvent())
                .isEqualTo(trigger);
        assertThat(CairnSerdes.retained().deserialize("t", FrozenSchemaWriter.encode(retained, 3)))
                .isEqualTo(retained);
    }

    private static CheckpointTriggered.Builder trigger(int acksExpected, List<TaskRoles> roles,
            SnapshotOptions options) {
        return CheckpointTriggered.newBuilder().setJobId("j").setCheckpointId(7).setTimestampMs(1_000)
                .setType(CheckpointType.CHECKPOINT).setPeriodic(true).setForce(false).setStorageLocation("mem://7")
                .setTimeoutAtMs(2_000).setAcksExpected(acksExpected).setRoles(roles).setOptions(options);
    }

    private static CheckpointCompleted completion(CheckpointType type, SnapshotOptions options) {
        return CheckpointCompleted.newBuilder().setJobId("j").setCheckpointId(7).setType(type)
                .setTriggerTimestampMs(1_000).setCompletionTimestampMs(1_500).setStorageLocation("mem://7")
                .setTotalSizeBytes(64).setSubtaskCount(2).setOptions(options).build();
    }
}
