package dev.cairn.coordinator.streams;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.SigningKey;
import dev.cairn.core.testing.Events;
import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JobSpec;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.TaskVertex;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Instant;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.function.UnaryOperator;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.StringSerializer;
import org.apache.kafka.streams.TestInputTopic;
import org.apache.kafka.streams.TestOutputTopic;
import org.apache.kafka.streams.test.TestRecord;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Failures stay with the record that caused them, on the production Streams properties: a decider that
 * throws an {@code Error}, a decision too large to send, unsigned or mis-signed sidecar records, trailing
 * bytes. Each goes to the dead-letter topic with its reason, and the next record is processed as usual.
 */
class FaultContainmentTopologyTest {

    private static final CairnTopics TOPICS = CoordinatorDriver.TOPICS;
    private static final Instant START = CoordinatorDriver.START;
    private static final SigningKey MASTER = SigningKey.generate();

    @TempDir
    Path stateDir;

    private CoordinatorDriver driver;

    @AfterEach
    void close() {
        if (driver != null) {
            driver.close();
        }
    }

    @Test
    void shouldDeadLetterARecordWhoseDecisionThrowsAnErrorAndServeTheNextJob() {
        start(decide -> (command, state, now) -> {
            if (command.jobId().equals("poison")) {
                throw new OutOfMemoryError("Java heap space (simulated)");
            }
            return decide.decide(command, state, now);
        }, Optional.empty(), 1_000_000);

        requests().pipeInput("poison", new RequestEnvelope(spec("poison", 1)));
        requests().pipeInput("healthy", new RequestEnvelope(spec("healthy", 1)));

        TestRecord<byte[], byte[]> dead = deadLetters().readRecord();
        assertThat(header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("OutOfMemoryError");
        assertThat(header(dead, DeadLetterQueueHandler.MESSAGE)).contains("deciding RegisterJob of job poison failed");
        assertThat(journal().readValuesToList()).extracting(JournalEnvelope::getEvent)
                .anyMatch(e -> e instanceof JobSpec spec && spec.getJobId().equals("healthy"))
                .noneMatch(e -> e instanceof JobSpec spec && spec.getJobId().equals("poison"));
    }

    @Test
    void shouldRefuseADecisionTooLargeToSendBeforeApplyingAnythingAndKeepOtherJobsCheckpointing() {
        start(UnaryOperator.identity(), Optional.empty(), 16 * 1024);
        List<TaskVertex> observers = new java.util.ArrayList<>();
        for (int task = 0; task < 100; task++) {
            observers.add(TaskVertex.newBuilder().setTaskId("observer-" + "o".repeat(190) + task).setParallelism(1)
                    .setTriggered(false).setAcknowledges(false).build());
        }
        JobSpec large = spec("large", 1);
        List<TaskVertex> tasks = new java.util.ArrayList<>(large.getTasks());
        tasks.addAll(observers);
        large.setTasks(tasks);
        requests().pipeInput("large", new RequestEnvelope(large));
        acks().pipeInput("large", new AckEnvelope(started("large", 0, "a-large")));
        requests().pipeInput("small", new RequestEnvelope(spec("small", 1)));
        acks().pipeInput("small", new AckEnvelope(started("small", 0, "a-small")));

        requests().pipeInput("large", new RequestEnvelope(trigger("large", "r-large")));
        requests().pipeInput("small", new RequestEnvelope(trigger("small", "r-small")));

        TestRecord<byte[], byte[]> dead = deadLetters().readRecord();
        assertThat(header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("OUTPUT_TOO_LARGE");
        assertThat(header(dead, DeadLetterQueueHandler.MESSAGE))
                .contains("the JobSpec of job large would be").contains("more than the limit of 16384")
                .contains("nothing was applied");
        assertThat(journal().readValuesToList()).extracting(JournalEnvelope::getEvent)
                .noneMatch(e -> e instanceof JobSpec spec && spec.getJobId().equals("large"));
        List<CheckpointTriggered> triggered = control().readValuesToList().stream()
                .map(ControlEnvelope::getEvent).filter(CheckpointTriggered.class::isInstance)
                .map(CheckpointTriggered.class::cast).toList();
        assertThat(triggered).extracting(CheckpointTriggered::getJobId).containsExactly("small");
    }

    @Test
    void shouldAcceptSignedSidecarRecordsAndDeadLetterUnsignedForgedOrAlteredOnes() {
        start(UnaryOperator.identity(), Optional.of(MASTER), 1_000_000);
        TestInputTopic<String, AckEnvelope> signedByJob = signedAcks(MASTER.jobKey("job-1"));
        TestInputTopic<String, AckEnvelope> signedByOtherJob = signedAcks(MASTER.jobKey("job-2"));
        requests().pipeInput("job-1", new RequestEnvelope(spec("job-1", 1)));

        acks().pipeInput("job-1", new AckEnvelope(started("job-1", 0, "unsigned")));
        signedByOtherJob.pipeInput("job-1", new AckEnvelope(started("job-1", 0, "forged")));
        byte[] signedBytes = CairnSerdes.acks()
                .serialize(TOPICS.acks(), new AckEnvelope(started("job-1", 0, "altered")));
        RecordHeaders headers = new RecordHeaders();
        RecordSignatures.sign(headers, MASTER.jobKey("job-1"), signedBytes);
        byte[] altered = Arrays.copyOf(signedBytes, signedBytes.length);
        altered[altered.length - 2] ^= 0x01;
        rawAcks().pipeInput(new TestRecord<>("job-1".getBytes(StandardCharsets.UTF_8), altered, headers, START));
        signedByJob.pipeInput("job-1", new AckEnvelope(started("job-1", 0, "genuine")));
        requests().pipeInput("job-1", new RequestEnvelope(trigger("job-1", "r-1")));

        assertThat(deadLetters().readRecordsToList()).extracting(r -> header(r, DeadLetterQueueHandler.REASON))
                .containsExactly("UNSIGNED", "BAD_SIGNATURE", "BAD_SIGNATURE");
        assertThat(journal().readValuesToList()).extracting(JournalEnvelope::getEvent)
                .filteredOn(TaskStarted.class::isInstance)
                .extracting(e -> ((TaskStarted) e).getAttemptId()).containsExactly("genuine");
    }

    @Test
    void shouldDeadLetterARequestWithAMegabyteJobIdWithoutEchoingItAndServeTheNextJob() {
        start(UnaryOperator.identity(), Optional.empty(), 1_000_000);
        String hugeId = "j".repeat(1_000_000);

        requests().pipeInput(hugeId, new RequestEnvelope(spec(hugeId, 1)));
        requests().pipeInput("healthy", new RequestEnvelope(spec("healthy", 1)));

        TestRecord<byte[], byte[]> dead = deadLetters().readRecord();
        assertThat(header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("ID_TOO_LONG");
        assertThat(header(dead, DeadLetterQueueHandler.MESSAGE)).contains("1000000 characters, more than the limit")
                .hasSizeLessThan(1_000);
        assertThat(dead.key()).as("an eighth of the producer's default max.request.size").hasSize(128 * 1024);
        assertThat(header(dead, DeadLetterQueueHandler.KEY_TRUNCATED_FROM)).isEqualTo("1000000");
        assertThat(header(dead, DeadLetterQueueHandler.KEY_SHA256)).hasSize(64);
        assertThat(journal().readRecordsToList()).allSatisfy(r -> assertThat(r.key()).hasSizeLessThan(300))
                .extracting(r -> r.value().getEvent())
                .anyMatch(e -> e instanceof JobSpec spec && spec.getJobId().equals("healthy"));
    }

    @Test
    void shouldDeadLetterARecordWithBytesAfterTheEvent() {
        start(UnaryOperator.identity(), Optional.empty(), 1_000_000);
        byte[] valid = CairnSerdes.requests().serialize(TOPICS.requests(), new RequestEnvelope(spec("job-1", 1)));
        byte[] padded = Arrays.copyOf(valid, valid.length + 1024);

        rawRequests().pipeInput("job-1".getBytes(StandardCharsets.UTF_8), padded);
        requests().pipeInput("job-2", new RequestEnvelope(spec("job-2", 1)));

        TestRecord<byte[], byte[]> dead = deadLetters().readRecord();
        assertThat(header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("TRAILING_BYTES");
        assertThat(dead.value()).isEqualTo(padded);
        assertThat(journal().readValuesToList()).extracting(JournalEnvelope::getEvent)
                .filteredOn(JobSpec.class::isInstance).extracting(e -> ((JobSpec) e).getJobId())
                .containsExactly("job-2");
    }

    private void start(UnaryOperator<CoordinatorProcessor.Decide> wrap, Optional<SigningKey> key, int maxRecordBytes) {
        driver = CoordinatorDriver.on(stateDir).wrapDecide(wrap).signedWith(key.orElse(null))
                .maxRecordBytes(maxRecordBytes).start();
    }

    private TestInputTopic<String, RequestEnvelope> requests() {
        return driver.requests();
    }

    private TestInputTopic<byte[], byte[]> rawRequests() {
        return driver.rawRequests();
    }

    private TestInputTopic<String, AckEnvelope> acks() {
        return driver.unsignedAcks();
    }

    private TestInputTopic<byte[], byte[]> rawAcks() {
        return driver.rawAcks();
    }

    private TestInputTopic<String, AckEnvelope> signedAcks(SigningKey jobKey) {
        return driver.driver().createInputTopic(TOPICS.acks(), new StringSerializer(),
                new dev.cairn.auth.SigningSerializer<>(CairnSerdes.acks().serializer(), jobKey));
    }

    private TestOutputTopic<String, ControlEnvelope> control() {
        return driver.control();
    }

    private TestOutputTopic<String, JournalEnvelope> journal() {
        return driver.journal();
    }

    private TestOutputTopic<byte[], byte[]> deadLetters() {
        return driver.deadLetters();
    }

    private static JobSpec spec(String jobId, int parallelism) {
        return Events.jobSpec(jobId, Map.of("source", parallelism)).setConfig(Events.config(600_000, 60_000)
                .setStorageBaseLocation("file:///cp").build()).setTimestampMs(START.toEpochMilli()).build();
    }

    private static TaskStarted started(String jobId, int subtask, String attemptId) {
        return Events.taskStarted(jobId, "source", subtask, attemptId).setTimestampMs(START.toEpochMilli()).build();
    }

    private static TriggerRequest trigger(String jobId, String requestId) {
        return Events.triggerRequest(jobId, requestId).setType(CheckpointType.CHECKPOINT)
                .setTimestampMs(START.toEpochMilli()).build();
    }

    private static String header(TestRecord<byte[], byte[]> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }
}
