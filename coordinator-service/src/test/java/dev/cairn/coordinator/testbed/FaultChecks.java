package dev.cairn.coordinator.testbed;

import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.kafka.test.TopicTail;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;

/**
 * What a test of bad input checks against a {@link CoordinatorTestBed}: the records of its dead-letter topic (read
 * from the beginning), each by the reason in its headers, and that a healthy job still completes a checkpoint.
 */
public final class FaultChecks implements AutoCloseable {

    private final CoordinatorTestBed bed;
    private final TopicTail<byte[]> deadLetters;

    private FaultChecks(CoordinatorTestBed bed) {
        this.bed = bed;
        this.deadLetters = TopicTail.fromBeginning(bed.bootstrapServers(), bed.topics().dlq(),
                new ByteArrayDeserializer(), value -> value);
    }

    /** Starts reading the bed's dead-letter topic; the bed must be open. */
    public static FaultChecks on(CoordinatorTestBed bed) {
        return new FaultChecks(bed);
    }

    /** Every dead letter read so far. */
    public List<ConsumerRecord<String, byte[]>> deadLetters() {
        return deadLetters.records();
    }

    /** The first dead letter of {@code reason}, once there is one. */
    public ConsumerRecord<String, byte[]> awaitDeadLetter(String reason) {
        return Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> deadLetters.records().stream()
                .filter(r -> reason.equals(header(r, DeadLetterQueueHandler.REASON))).findFirst().orElse(null),
                r -> r != null);
    }

    /** How many dead letters of {@code reason} were read so far. */
    public long deadLetters(String reason) {
        return deadLetters.records().stream().filter(r -> reason.equals(header(r, DeadLetterQueueHandler.REASON)))
                .count();
    }

    /** The value of header {@code name} as text, or {@code null} when the record has none. */
    public static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    /** Registers a new job of one task, starts its subtask, and waits until its first checkpoint completes. */
    public void assertAHealthyJobCompletesACheckpoint() {
        String job = CoordinatorTestBed.uniqueJobId("healthy");
        bed.register(Events.job(job, 200, 10_000, "source"));
        bed.startTask(job, "source", 0, "a-1");
        CheckpointTriggered triggered = bed.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job));
        bed.ack(job, triggered.getCheckpointId(), "source", 0, "a-1");
        bed.awaitNextControl(CheckpointCompleted.class, c -> c.getJobId().equals(job));
    }

    @Override
    public void close() {
        deadLetters.close();
    }
}
