package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.core.contract.JobSpecs;
import dev.cairn.core.state.CoordinatorState;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointFailureReason;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SubtaskMetrics;
import dev.cairn.events.SubtaskState;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.TopologyTestDriver;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The topology with a mocked wall clock: periodic triggering, completion, timeouts and dead letters. */
class CoordinatorTopologyTest {

    private static final CairnTopics TOPICS = CoordinatorDriver.TOPICS;
    private static final Instant START = CoordinatorDriver.START;

    @TempDir
    java.nio.file.Path stateDir;

    private CoordinatorDriver coordinator;
    private TopologyTestDriver driver;
    private TestInputTopic<String, RequestEnvelope> requests;
    private TestInputTopic<String, AckEnvelope> acks;
    private TestInputTopic<byte[], byte[]> rawRequests;
    private TestOutputTopic<String, ControlEnvelope> control;
    private TestOutputTopic<String, JournalEnvelope> journal;
    private TestOutputTopic<String, byte[]> completed;
    private TestOutputTopic<byte[], byte[]> deadLetters;

    @BeforeEach
    void startDriver() {
        coordinator = CoordinatorDriver.start(stateDir);
        driver = coordinator.driver();
        requests = coordinator.requests();
        acks = coordinator.acks();
        rawRequests = coordinator.rawRequests();
        control = coordinator.control();
        journal = coordinator.journal();
        completed = coordinator.completed();
        deadLetters = coordinator.deadLetters();
    }

    @AfterEach
    void closeDriver() {
        coordinator.close();
    }

    @Test
    void shouldTriggerPeriodicallyAndCompleteWhenEveryTaskAcks() {
        registerJobWithTwoRunningTasks("job-1", 1_000, 10_000);

        driver.advanceWallClockTime(Duration.ofMillis(1_100));

        CheckpointTriggered triggered = (CheckpointTriggered) control.readValue().getEvent();
        assertThat(triggered.getCheckpointId()).isEqualTo(1L);
        assertThat(triggered.getStorageLocation()).isEqualTo("file:///cp/job-1/chk-1");

        acknowledge("job-1", 1, "source", "a-source");
        acknowledge("job-1", 1, "sink", "a-sink");

        CheckpointCompleted done = (CheckpointCompleted) control.readValue().getEvent();
        assertThat(done.getCheckpointId()).isEqualTo(1L);
        assertThat(done.getSubtaskCount()).isEqualTo(2);
        assertThat(done.getSubtaskStates()).as("a completion does not grow with the subtasks").isEmpty();
        List<TestRecord<String, byte[]>> published = completed.readRecordsToList();
        assertThat(published).extracting(TestRecord::key)
                .containsExactly("job-1", CairnTopics.restorePartKey("job-1", 0));
        RetainedCheckpoints retained = CairnSerdes.retained().deserialize(TOPICS.completed(), published.get(0).value());
        assertThat(retained.getCheckpoints()).extracting(CheckpointCompleted::getCheckpointId).containsExactly(1L);
        RestorePart part = CairnSerdes.restoreParts().deserialize(TOPICS.completed(), published.get(1).value());
        assertThat(part.getCheckpointId()).isEqualTo(1L);
        assertThat(part.getParts()).isEqualTo(1);
        assertThat(part.getStates()).extracting(SubtaskState::getTaskId, SubtaskState::getAttemptId)
                .containsExactly(org.assertj.core.groups.Tuple.tuple("sink", "a-sink"),
                        org.assertj.core.groups.Tuple.tuple("source", "a-source"));

        driver.advanceWallClockTime(Duration.ofMillis(1_000));
        CheckpointTriggered next = (CheckpointTriggered) control.readValue().getEvent();
        assertThat(next.getCheckpointId()).isEqualTo(2L);

        assertThat(stores().job("job-1").orElseThrow().getLatestCompletedId()).isEqualTo(1L);
    }

    @Test
    void shouldStoreTheSpecAndOneKeyPerVertexAndRemoveTheKeysOfDroppedTasks() {
        registerJobWithTwoRunningTasks("job-5", 1_000, 10_000);
        assertThat(stores().vertex("job-5", "sink").orElseThrow().getParallelism()).isEqualTo(1);

        JobSpec sourceOnly = Events.jobSpec("job-5", Map.of("source", 2)).setConfig(Events.config(2_000, 10_000)
                .setStorageBaseLocation("file:///cp").build()).setTimestampMs(START.toEpochMilli()).build();
        requests.pipeInput("job-5", new RequestEnvelope(sourceOnly));

        CoordinatorState stores = stores();
        JobSpec registered = JobSpecs.withMaxParallelism(sourceOnly, Optional.empty());
        assertThat(stores.spec("job-5")).contains(registered);
        assertThat(stores.vertex("job-5", "sink")).isEmpty();
        assertThat(stores.vertex("job-5", "source")).contains(registered.getTasks().get(0));
        assertThat(stores.job("job-5").orElseThrow().getConfig()).isEqualTo(sourceOnly.getConfig());
    }

    @Test
    void shouldAbortAsExpiredWhenTimeoutPasses() {
        registerJobWithTwoRunningTasks("job-2", 1_000, 3_000);
        driver.advanceWallClockTime(Duration.ofMillis(1_100));
        assertThat(control.readValue().getEvent()).isInstanceOf(CheckpointTriggered.class);
        acknowledge("job-2", 1, "source", "a-source");

        driver.advanceWallClockTime(Duration.ofMillis(3_000));

        List<Object> events = control.readValuesToList().stream().map(ControlEnvelope::getEvent).toList();
        CheckpointAborted aborted = events.stream().filter(CheckpointAborted.class::isInstance)
                .map(CheckpointAborted.class::cast).findFirst().orElseThrow();
        assertThat(aborted.getCheckpointId()).isEqualTo(1L);
        assertThat(aborted.getReason()).isEqualTo(CheckpointFailureReason.CHECKPOINT_EXPIRED);
    }

    @Test
    void shouldJournalEveryAcceptedAndDecidedEventInOrder() {
        registerJobWithTwoRunningTasks("job-3", 1_000, 10_000);
        driver.advanceWallClockTime(Duration.ofMillis(1_100));

        List<String> kinds = journal.readValuesToList().stream()
                .map(e -> e.getEvent().getClass().getSimpleName()).toList();
        assertThat(kinds).startsWith("RequestAdmitted", "JobSpec").contains("TaskStarted", "CheckpointTriggered");
        assertThat(kinds.indexOf("CheckpointTriggered")).isGreaterThan(kinds.lastIndexOf("TaskStarted"));
    }

    @Test
    void shouldSendUnreadableRecordsToTheDeadLetterTopicAndKeepGoing() {
        rawRequests.pipeInput("job-4".getBytes(StandardCharsets.UTF_8), "{not avro}".getBytes(StandardCharsets.UTF_8));
        registerJobWithTwoRunningTasks("job-4", 1_000, 10_000);

        TestRecord<byte[], byte[]> dead = deadLetters.readRecord();
        assertThat(new String(dead.value(), StandardCharsets.UTF_8)).isEqualTo("{not avro}");
        assertThat(header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("NOT_SINGLE_OBJECT_ENCODED");
        assertThat(header(dead, DeadLetterQueueHandler.SOURCE_TOPIC)).isEqualTo(TOPICS.requests());
        assertThat(header(dead, DeadLetterQueueHandler.SOURCE_OFFSET)).isEqualTo("0");

        driver.advanceWallClockTime(Duration.ofMillis(1_100));
        assertThat(control.readValue().getEvent()).isInstanceOf(CheckpointTriggered.class);
    }

    @Test
    void shouldDeadLetterARecordKeyedByAnotherJob() {
        requests.pipeInput("job-x", new RequestEnvelope(spec("job-y", 1_000, 10_000)));

        TestRecord<byte[], byte[]> dead = deadLetters.readRecord();
        assertThat(header(dead, DeadLetterQueueHandler.STAGE)).isEqualTo("processing");
        assertThat(header(dead, DeadLetterQueueHandler.MESSAGE))
                .contains("record key 'job-x' differs from the job id 'job-y'");
        assertThat(journal.isEmpty()).isTrue();
    }

    private void registerJobWithTwoRunningTasks(String jobId, long intervalMs, long timeoutMs) {
        requests.pipeInput(jobId, new RequestEnvelope(spec(jobId, intervalMs, timeoutMs)));
        acks.pipeInput(jobId, new AckEnvelope(started(jobId, "source", "a-source")));
        acks.pipeInput(jobId, new AckEnvelope(started(jobId, "sink", "a-sink")));
    }

    private static JobSpec spec(String jobId, long intervalMs, long timeoutMs) {
        return Events.jobSpec(jobId, "source", "sink").setConfig(Events.config(intervalMs, timeoutMs)
                .setStorageBaseLocation("file:///cp").build()).setTimestampMs(START.toEpochMilli()).build();
    }

    private static TaskStarted started(String jobId, String taskId, String attemptId) {
        return Events.taskStarted(jobId, taskId, 0, attemptId).setTimestampMs(START.toEpochMilli()).build();
    }

    private void acknowledge(String jobId, long checkpointId, String taskId, String attemptId) {
        acks.pipeInput(jobId, new AckEnvelope(Events.ack(jobId, checkpointId, taskId, 0, attemptId)
                .setStateHandle(Events.state("file:///s/" + taskId, 100))
                .setMetrics(SubtaskMetrics.newBuilder().build())
                .setTimestampMs(START.toEpochMilli()).build()));
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** The state in the topology's stores, read as the interactive queries read it. */
    private CoordinatorState stores() {
        return CoordinatorState.over(StreamsStorage.forQueries(driver::getKeyValueStore));
    }
}
