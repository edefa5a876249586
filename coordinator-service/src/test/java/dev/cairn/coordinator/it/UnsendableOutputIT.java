package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.FaultChecks;
import dev.cairn.core.testing.Events;
import dev.cairn.events.JobSpec;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.streams.StreamsConfig;
import org.apache.kafka.streams.ThreadMetadata;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A decision that Kafka refuses to take, under exactly-once, against a real broker: the coordinator's producer
 * accepts records of {@value #MAX_REQUEST_BYTES} bytes at most, below the coordinator's own size limit, so a valid
 * job spec whose journal record is larger passes every check of the coordinator and is refused by the producer.
 * The transaction is then unusable and the input would be processed again and again; the coordinator must instead
 * dead-letter it after one stream-thread replacement and keep serving the other jobs.
 */
@ExtendWith(KafkaClusterExtension.class)
class UnsendableOutputIT {

    private static final int MAX_REQUEST_BYTES = 16_384;

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass()
            .kafkaProperty(StreamsConfig.producerPrefix(ProducerConfig.MAX_REQUEST_SIZE_CONFIG),
                    Integer.toString(MAX_REQUEST_BYTES))
            .create();
    private static FaultChecks checks;

    @BeforeAll
    static void readDeadLetters() {
        checks = FaultChecks.on(cairn);
    }

    @AfterAll
    static void stop() {
        checks.close();
    }

    @Test
    void shouldDeadLetterAnInputWhoseDecisionKafkaRefusesAfterOneThreadReplacementAndKeepServing() {
        Set<String> threadsBefore = streamThreads();
        String big = CoordinatorTestBed.uniqueJobId("big");
        Map<String, Integer> tasks = new LinkedHashMap<>();
        for (int i = 0; i < 100; i++) {
            tasks.put("task-" + i + "-" + "x".repeat(200), 1);
        }
        JobSpec spec = Events.job(big, 200, 10_000, tasks);

        cairn.register(spec);

        ConsumerRecord<String, byte[]> letter = checks.awaitDeadLetter("OUTPUT_UNSENDABLE");
        assertThat(FaultChecks.header(letter, DeadLetterQueueHandler.SOURCE_TOPIC))
                .isEqualTo(cairn.topics().requests());
        assertThat(FaultChecks.header(letter, DeadLetterQueueHandler.MESSAGE))
                .containsPattern("RecordTooLargeException sending to \\S+: The message is \\d+ bytes")
                .contains("skipped the record and decided nothing");
        assertThat(letter.key()).isEqualTo(big);
        checks.assertAHealthyJobCompletesACheckpoint();
        assertThat(cairn.journal(JobSpec.class, s -> s.getJobId().equals(big)))
                .as("nothing of the refused decision was committed").isEmpty();
        Set<String> replaced = new HashSet<>(streamThreads());
        replaced.removeAll(threadsBefore);
        assertThat(replaced).as("one stream thread replaced, not a loop").hasSizeLessThanOrEqualTo(1);
        assertThat(checks.deadLetters("OUTPUT_UNSENDABLE")).isEqualTo(1);
    }

    private static Set<String> streamThreads() {
        return cairn.coordinator().streams().metadataForLocalThreads().stream().map(ThreadMetadata::threadName)
                .collect(Collectors.toSet());
    }
}
