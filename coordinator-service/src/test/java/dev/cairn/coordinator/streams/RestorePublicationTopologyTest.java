package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.contract.InputLimits;
import dev.cairn.core.decide.RestoreParts;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.PostCheckpointAction;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.StateHandle;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.TaskFinished;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.nio.file.Path;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What a completion publishes on the completed topic: the retained checkpoints under the job id, and the
 * newest checkpoint's subtask states in parts under part keys; parts a newer, smaller checkpoint no longer
 * has are tombstoned. Records of 18 KiB at most, so that a part holds two states at the default limits.
 */
class RestorePublicationTopologyTest {

    private static final CairnTopics TOPICS = CoordinatorDriver.TOPICS;
    private static final Instant START = CoordinatorDriver.START;
    private static final int MAX_RECORD_BYTES = 18 * 1024;

    @TempDir
    Path stateDir;

    private CoordinatorDriver driver;
    private TestInputTopic<String, AckEnvelope> acks;
    private TestOutputTopic<String, byte[]> completed;

    @BeforeEach
    void start() {
        driver = CoordinatorDriver.on(stateDir).maxRecordBytes(MAX_RECORD_BYTES).start();
        acks = driver.acks();
        completed = driver.completed();
    }

    @AfterEach
    void close() {
        driver.close();
    }

    @Test
    void shouldPublishTheStatesInBoundedPartsAndTombstoneThoseANewerCheckpointNoLongerHas() {
        assertThat(RestoreParts.statesPerPart(InputLimits.DEFAULTS, MAX_RECORD_BYTES)).isEqualTo(2);
        checkpoint(1, 5);
        List<TestRecord<String, byte[]>> first = completed.readRecordsToList();
        assertThat(first).extracting(TestRecord::key).containsExactly("job", partKey(0), partKey(1), partKey(2));
        assertThat(first.subList(1, 4)).allSatisfy(r -> assertThat(r.value().length).isLessThan(MAX_RECORD_BYTES));
        assertThat(part(first.get(3)).getStates()).extracting(s -> s.getSubtaskIndex()).containsExactly(4);

        checkpoint(2, 1);
        List<TestRecord<String, byte[]>> second = completed.readRecordsToList();

        assertThat(second).extracting(TestRecord::key).containsExactly("job", partKey(0), partKey(1), partKey(2));
        RetainedCheckpoints retained = CairnSerdes.retained().deserialize(TOPICS.completed(), second.get(0).value());
        assertThat(retained.getCheckpoints().get(retained.getCheckpoints().size() - 1).getSubtaskCount()).isEqualTo(1);
        assertThat(part(second.get(1)).getCheckpointId()).isEqualTo(2);
        assertThat(part(second.get(1)).getParts()).isEqualTo(1);
        assertThat(second.get(2).value()).as("tombstone of part 1").isNull();
        assertThat(second.get(3).value()).as("tombstone of part 2").isNull();
    }

    @Test
    void shouldSendTheRetainedCheckpointsInTheSizeTheCoreMeasuredThemAt() throws Exception {
        checkpoint(1, 5);

        byte[] sent = completed.readRecordsToList().get(0).value();

        RetainedCheckpoints retained = CairnSerdes.retained().deserialize(TOPICS.completed(), sent);
        assertThat(retained.toByteBuffer().remaining()).as("what the core's cut to fit measures")
                .isEqualTo(sent.length);
    }

    @Test
    void shouldPublishTheFinalStateOfASubtaskThatFinishedBeforeTheCheckpointWithTheAckedStates() {
        register(2);
        acks.pipeInput("job", new AckEnvelope(TaskFinished.newBuilder().setJobId("job").setTaskId("map")
                .setSubtaskIndex(1).setAttemptId("a-1")
                .setFinalState(StateHandle.newBuilder().setLocation("file:///final/map-1").setSizeBytes(7L).build())
                .setTimestampMs(0).build()));
        trigger(1);
        ack(1, 0);

        List<TestRecord<String, byte[]>> records = completed.readRecordsToList();

        assertThat(records).extracting(TestRecord::key).containsExactly("job", partKey(0));
        RetainedCheckpoints retained = CairnSerdes.retained().deserialize(TOPICS.completed(), records.get(0).value());
        assertThat(retained.getCheckpoints().get(0).getSubtaskCount()).isEqualTo(2);
        assertThat(retained.getCheckpoints().get(0).getTotalSizeBytes()).isEqualTo(17L);
        assertThat(part(records.get(1)).getStates()).extracting(s -> s.getHandle().getLocation())
                .containsExactly("file:///cp/job/chk-1/map-0", "file:///final/map-1");
    }

    @Test
    void shouldPublishTheStopsSavepointAsTheJobsRestorePoint() {
        checkpoint(1, 2);
        completed.readRecordsToList();
        savepoint(2, "stop", PostCheckpointAction.SUSPEND);

        List<TestRecord<String, byte[]>> records = completed.readRecordsToList();

        assertThat(records).extracting(TestRecord::key).containsExactly("job", partKey(0));
        RetainedCheckpoints retained = CairnSerdes.retained().deserialize(TOPICS.completed(), records.get(0).value());
        CheckpointCompleted newest = retained.getCheckpoints().get(retained.getCheckpoints().size() - 1);
        assertThat(newest.getCheckpointId()).isEqualTo(2);
        assertThat(newest.getType()).isEqualTo(CheckpointType.SAVEPOINT);
        assertThat(retained.getChosenRestoreId()).as("the job's own restore point, chosen by nobody").isEqualTo(-1);
        assertThat(part(records.get(1)).getCheckpointId()).isEqualTo(2);
        assertThat(part(records.get(1)).getStates()).extracting(st -> st.getHandle().getLocation())
                .containsExactly("file:///cp/job/chk-2/map-0", "file:///cp/job/chk-2/map-1");
    }

    @Test
    void shouldPublishAPlainSavepointAsNoRestorePoint() {
        checkpoint(1, 2);
        completed.readRecordsToList();

        savepoint(2, "sp", PostCheckpointAction.NONE);

        assertThat(completed.readRecordsToList()).as("a savepoint commits nothing: no worker restores it unasked")
                .isEmpty();
    }

    @Test
    void shouldPublishThePointAUserRestoresTheStoppedJobFrom() {
        checkpoint(1, 2);
        savepoint(2, "sp", PostCheckpointAction.NONE);
        trigger(3);
        ack(3, 0);
        ack(3, 1);
        savepoint(4, "stop", PostCheckpointAction.SUSPEND);
        completed.readRecordsToList();

        driver.send("job", new RequestEnvelope(RestoreJob.newBuilder().setJobId("job").setRequestId("restore")
                .setCheckpointId(2L).setRestoreMode(RestoreMode.NO_CLAIM).setRequester("test").setTimestampMs(0)
                .build()));

        List<TestRecord<String, byte[]>> records = completed.readRecordsToList();
        assertThat(records).extracting(TestRecord::key).containsExactly("job", partKey(0));
        RetainedCheckpoints retained = CairnSerdes.retained().deserialize(TOPICS.completed(), records.get(0).value());
        assertThat(retained.getCheckpoints().get(retained.getCheckpoints().size() - 1).getCheckpointId()).isEqualTo(2);
        assertThat(retained.getChosenRestoreId()).isEqualTo(2);
        assertThat(retained.getRestoreMode()).isEqualTo(RestoreMode.NO_CLAIM);
        assertThat(part(records.get(1)).getStates()).extracting(st -> st.getHandle().getLocation())
                .containsExactly("file:///cp/job/chk-2/map-0", "file:///cp/job/chk-2/map-1");
    }

    /** A savepoint of the job's two subtasks, acked by both; a stop when {@code action} is not NONE. */
    private void savepoint(long id, String requestId, PostCheckpointAction action) {
        driver.send("job", new RequestEnvelope(Events.triggerRequest("job", requestId)
                .setType(CheckpointType.SAVEPOINT).setPostCheckpointAction(action).setTimestampMs(0).build()));
        ack(id, 0);
        ack(id, 1);
    }

    /** Registers the job with {@code parallelism} subtasks, triggers checkpoint {@code id} and acks every subtask. */
    private void checkpoint(long id, int parallelism) {
        register(parallelism);
        trigger(id);
        for (int subtask = 0; subtask < parallelism; subtask++) {
            ack(id, subtask);
        }
    }

    /** Registers the job with {@code parallelism} subtasks and starts every one. */
    private void register(int parallelism) {
        driver.send("job", new RequestEnvelope(Events.jobSpec("job", Map.of("map", parallelism))
                .setConfig(Events.config(3_600_000, 60_000).setStorageBaseLocation("file:///cp").build())
                .setTimestampMs(START.toEpochMilli()).build()));
        for (int subtask = 0; subtask < parallelism; subtask++) {
            acks.pipeInput("job", new AckEnvelope(Events.taskStarted("job", "map", subtask, "a-" + subtask)
                    .setTimestampMs(0).build()));
        }
    }

    private void trigger(long id) {
        driver.send("job", new RequestEnvelope(Events.triggerRequest("job", "r-" + id).setTimestampMs(0)
                .build()));
    }

    private void ack(long id, int subtask) {
        acks.pipeInput("job", new AckEnvelope(Events.ack("job", id, "map", subtask, "a-" + subtask)
                .setStateHandle(Events.state("file:///cp/job/chk-" + id + "/map-" + subtask, 10L))
                .setMetrics(SubtaskMetrics.newBuilder().build()).setTimestampMs(0).build()));
    }

    private static String partKey(int part) {
        return CairnTopics.restorePartKey("job", part);
    }

    private static RestorePart part(TestRecord<String, byte[]> record) {
        return CairnSerdes.restoreParts().deserialize(TOPICS.completed(), record.value());
    }
}
