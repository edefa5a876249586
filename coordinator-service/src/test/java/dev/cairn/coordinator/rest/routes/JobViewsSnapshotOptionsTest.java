package dev.cairn.coordinator.rest.routes;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.coordinator.state.CheckpointStatus;
import dev.cairn.coordinator.state.CheckpointSummary;
import dev.cairn.coordinator.state.JobState;
import dev.cairn.coordinator.state.PendingCheckpoint;
import dev.cairn.coordinator.state.QueuedRequest;
import dev.cairn.core.events.CairnRecords;
import dev.cairn.core.state.CheckpointProgress;
import dev.cairn.core.views.JobViews;
import dev.cairn.events.AlignmentType;
import dev.cairn.events.BackupType;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.JobSpec;
import dev.cairn.events.ParticipantState;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestedOptions;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SavepointFormat;
import dev.cairn.events.SnapshotOptions;
import dev.cairn.events.StateHandle;
import java.util.List;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/** The views of the snapshot options, the participants and the snapshot configuration of a job. */
class JobViewsSnapshotOptionsTest {

    @BeforeAll
    static void trustCairnRecordsBeforeBuildingAny() {
        CairnRecords.trustGeneratedClasses();
    }

    private static final long T0 = 1_767_225_600_000L;

    @Test
    void shouldShowTheSnapshotConfigInFlinksNamesAndTheParticipantsInSpecOrder() {
        JobSpec spec = JobViewsTest.spec();
        spec.getConfig().setExactlyOnce(false);
        spec.getConfig().setUnalignedEnabled(true);
        spec.getConfig().setAlignedTimeoutMs(250);
        spec.getConfig().setBackupType(BackupType.INCREMENTAL);
        spec.getConfig().setSavepointFormat(SavepointFormat.NATIVE);
        spec.setParticipants(List.of("offsets-hook", "enumerator"));

        JsonNode job = json(JobViews.job(JobViewsTest.job(), spec));

        JsonNode config = job.get("config");
        assertThat(config.get("mode").asText()).isEqualTo("at_least_once");
        assertThat(config.get("unaligned_checkpoints").asBoolean()).isTrue();
        assertThat(config.get("aligned_checkpoint_timeout").asLong()).isEqualTo(250);
        assertThat(config.get("backup_type").asText()).isEqualTo("INCREMENTAL");
        assertThat(config.get("savepoint_format").asText()).isEqualTo("NATIVE");
        assertThat(job.get("participants")).extracting(JsonNode::asText).containsExactly("offsets-hook", "enumerator");
    }

    @Test
    void shouldShowAPendingStopWithSavepointWhoseParticipantsAreStillSnapshotting() {
        PendingCheckpoint pending = pending(CheckpointType.SAVEPOINT).setOptions(SnapshotOptions.newBuilder()
                .setSavepointFormat(SavepointFormat.NATIVE).setPostCheckpointAction(PostCheckpointAction.TERMINATE)
                .setAlignment(AlignmentType.FORCED_ALIGNED).build())
                .setParticipants(List.of("offsets-hook", "enumerator"))
                .setParticipantStates(List.of(ParticipantState.newBuilder().setParticipant("enumerator")
                        .setState(StateHandle.newBuilder().setLocation("s3://sp/enumerator")
                                .setSizeBytes(64L).build()).build()))
                .build();

        JsonNode view = json(JobViews.pending(pending, CheckpointProgress.NONE));

        JsonNode options = view.get("options");
        assertThat(options.get("backup_type").isNull()).isTrue();
        assertThat(options.get("savepoint_format").asText()).isEqualTo("NATIVE");
        assertThat(options.get("post_checkpoint_action").asText()).isEqualTo("TERMINATE");
        assertThat(options.get("alignment").asText()).isEqualTo("FORCED_ALIGNED");
        assertThat(options.get("aligned_checkpoint_timeout").isNull()).isTrue();
        assertThat(view.get("tasks_triggered").asBoolean()).isFalse();
        JsonNode participants = view.get("participants");
        assertThat(participants).hasSize(2);
        assertThat(participants.get(0).get("name").asText()).isEqualTo("offsets-hook");
        assertThat(participants.get(0).get("acknowledged").asBoolean()).isFalse();
        assertThat(participants.get(0).get("state_location").isNull()).isTrue();
        assertThat(participants.get(1).get("name").asText()).isEqualTo("enumerator");
        assertThat(participants.get(1).get("acknowledged").asBoolean()).isTrue();
        assertThat(participants.get(1).get("state_location").asText()).isEqualTo("s3://sp/enumerator");
        assertThat(participants.get(1).get("state_size").asLong()).isEqualTo(64);
    }

    @Test
    void shouldShowTheFinishedSubtasksAndTheUnalignedOptionsOfAPendingCheckpoint() {
        PendingCheckpoint pending = pending(CheckpointType.CHECKPOINT).setOptions(SnapshotOptions.newBuilder()
                .setBackupType(BackupType.INCREMENTAL).setAlignment(AlignmentType.ALIGNED).setAlignedTimeoutMs(500)
                .build()).setFinishedSubtasks(2).setFinishedStateBytes(300).build();

        JsonNode view = json(JobViews.pending(pending, CheckpointProgress.NONE));

        assertThat(view.get("options").get("backup_type").asText()).isEqualTo("INCREMENTAL");
        assertThat(view.get("options").get("savepoint_format").isNull()).isTrue();
        assertThat(view.get("options").get("aligned_checkpoint_timeout").asLong()).isEqualTo(500);
        assertThat(view.get("tasks_triggered").asBoolean()).isTrue();
        assertThat(view.get("participants")).isEmpty();
        assertThat(view.get("finished_subtasks").asInt()).isEqualTo(2);
        assertThat(view.get("finished_state_size").asLong()).isEqualTo(300);
    }

    /**
     * Flink's CheckpointCoordinatorTest#testCheckpointTriggeredAfterSomeTasksFinishedIfAllowed: right after the
     * trigger of a checkpoint of 6 subtasks, 3 of them finished, the statistics show 6 subtasks, 3 acknowledged.
     */
    @Test
    void shouldCountFinishedSubtasksAsSubtasksAcknowledgedFromTheTrigger() {
        PendingCheckpoint pending = pending(CheckpointType.CHECKPOINT).setFinishedSubtasks(3).build();

        JsonNode view = json(JobViews.pending(pending, CheckpointProgress.NONE));

        assertThat(view.get("num_subtasks").asInt()).isEqualTo(6);
        assertThat(view.get("num_acknowledged_subtasks").asInt()).isEqualTo(3);
        assertThat(view.get("finished_subtasks").asInt()).isEqualTo(3);
    }

    @Test
    void shouldShowTheDefaultOptionsWhenARecordPredatesOptions() {
        JsonNode options = json(JobViews.pending(pending(CheckpointType.CHECKPOINT).build(), CheckpointProgress.NONE))
                .get("options");

        assertThat(options.get("backup_type").asText()).isEqualTo("FULL");
        assertThat(options.get("savepoint_format").isNull()).isTrue();
        assertThat(options.get("post_checkpoint_action").asText()).isEqualTo("NONE");
        assertThat(options.get("alignment").asText()).isEqualTo("ALIGNED");
        assertThat(options.get("aligned_checkpoint_timeout").isNull()).isTrue();
    }

    @Test
    void shouldShowTheOptionsOfAnEndedCheckpointAndNoPendingOnlyFields() {
        CheckpointSummary summary = CheckpointSummary.newBuilder().setCheckpointId(3).setType(CheckpointType.SAVEPOINT)
                .setPeriodic(false).setStatus(CheckpointStatus.COMPLETED).setTriggerTimestampMs(T0)
                .setEndTimestampMs(T0 + 10).setEndToEndDurationMs(10).setStateSizeBytes(1).setAcksExpected(1)
                .setAcksReceived(1).setStorageLocation("s3://sp/3")
                .setOptions(SnapshotOptions.newBuilder().setPostCheckpointAction(PostCheckpointAction.SUSPEND).build())
                .build();

        JsonNode view = json(JobViews.checkpoints(JobViewsTest.job(), List.of(summary), id -> CheckpointProgress.NONE))
                .get("history").get(0);

        assertThat(view.get("options").get("post_checkpoint_action").asText()).isEqualTo("SUSPEND");
        assertThat(view.get("options").get("savepoint_format").asText()).isEqualTo("CANONICAL");
        assertThat(view.get("tasks_triggered").isNull()).isTrue();
        assertThat(view.get("participants").isNull()).isTrue();
        assertThat(view.get("finished_subtasks").isNull()).isTrue();
    }

    @Test
    void shouldShowTheOptionsAQueuedRequestWouldRunWith() {
        JobState job = JobViewsTest.job();
        job.setQueue(List.of(QueuedRequest.newBuilder().setSequence(1).setRequestId("c-1")
                .setType(CheckpointType.CHECKPOINT).setForce(true).setPeriodic(false).setTimestampMs(T0)
                .setRequestedOptions(RequestedOptions.newBuilder().setUnalignedEnabled(true).build()).build()));

        JsonNode queued = json(JobViews.job(job, JobViewsTest.spec())).get("queued_requests").get(0);

        assertThat(queued.get("force").asBoolean()).isTrue();
        assertThat(queued.get("options").get("alignment").asText()).isEqualTo("UNALIGNED");
        assertThat(queued.get("options").get("backup_type").asText()).isEqualTo("FULL");
    }

    @Test
    void shouldShowTheParticipantStatesAndOptionsOfTheCheckpointToRestoreFrom() {
        CheckpointCompleted completed = CheckpointCompleted.newBuilder().setJobId("job-1").setCheckpointId(7)
                .setType(CheckpointType.CHECKPOINT).setTriggerTimestampMs(T0).setCompletionTimestampMs(T0 + 5)
                .setStorageLocation("file:///cp/job-1/chk-7").setTotalSizeBytes(10).setSubtaskCount(0)
                .setParticipantStates(List.of(
                        ParticipantState.newBuilder().setParticipant("offsets-hook")
                                .setState(StateHandle.newBuilder().setLocation("file:///cp/job-1/chk-7/offsets-hook")
                                        .setSizeBytes(10L).build()).build(),
                        ParticipantState.newBuilder().setParticipant("enumerator").build()))
                .setOptions(SnapshotOptions.newBuilder().setBackupType(BackupType.INCREMENTAL).build())
                .build();

        JsonNode restore = json(JobViews.latestCompleted(
                RetainedCheckpoints.newBuilder().setJobId("job-1").setCheckpoints(List.of(completed)).build(),
                (job, id) -> List.of()).orElseThrow());

        JsonNode states = restore.get("participant_states");
        assertThat(states).hasSize(2);
        assertThat(states.get(0).get("name").asText()).isEqualTo("offsets-hook");
        assertThat(states.get(0).get("state_location").asText()).isEqualTo("file:///cp/job-1/chk-7/offsets-hook");
        assertThat(states.get(1).get("acknowledged").asBoolean()).isTrue();
        assertThat(states.get(1).get("state_location").isNull()).isTrue();
        assertThat(restore.get("options").get("backup_type").asText()).isEqualTo("INCREMENTAL");
    }

    private static PendingCheckpoint.Builder pending(CheckpointType type) {
        return PendingCheckpoint.newBuilder().setCheckpointId(4).setType(type).setPeriodic(false).setForce(false)
                .setTriggerTimestampMs(T0).setTimeoutAtMs(T0 + 60_000).setStorageLocation("file:///cp/job-1/chk-4")
                .setAcksExpected(3);
    }

    private static JsonNode json(Object view) {
        return Json.MAPPER.valueToTree(view);
    }
}
