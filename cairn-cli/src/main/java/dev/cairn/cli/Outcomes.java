package dev.cairn.cli;

import dev.cairn.client.audit.JournalDecoder;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.RequestOutcome;
import dev.cairn.events.RequestStatus;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.KafkaException;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Where the CLI waits for the coordinator's answer to a request it sent ({@code cairn resume}, {@code cairn savepoint
 * dispose}): the {@code RequestOutcome} with its request id on {@code <prefix>journal}. A watch is opened before the
 * request is sent, at the journal's end, so that no outcome written after the send is missed.
 */
@FunctionalInterface
interface Outcomes {

    /** Opens a watch of {@code journalTopic} at its end, with the consumer's connection settings. */
    Watch watch(Map<String, Object> consumerSettings, String journalTopic);

    /** The journal from where it was opened. */
    interface Watch extends AutoCloseable {

        /** The first COMPLETED or FAILED outcome of the job's request, empty when none came within {@code timeout}. */
        Optional<RequestOutcome> await(String jobId, String requestId, Duration timeout);

        /** Where checkpoint {@code checkpointId} of the awaited job was written, when its completion was seen. */
        default Optional<String> location(Long checkpointId) {
            return Optional.empty();
        }

        @Override
        void close();
    }

    /** Reads the journal with a consumer of its own (no group, read_committed), from the end it saw when opened. */
    static Watch kafka(Map<String, Object> consumerSettings, String journalTopic) {
        Map<String, Object> config = new HashMap<>(consumerSettings);
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, "cairn-cli-outcomes");
        KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer());
        try {
            List<TopicPartition> partitions = consumer.partitionsFor(journalTopic, Duration.ofSeconds(30)).stream()
                    .map(p -> new TopicPartition(journalTopic, p.partition())).toList();
            if (partitions.isEmpty()) {
                throw new IllegalArgumentException("the journal topic " + journalTopic + " does not exist (check "
                        + "--topic-prefix)");
            }
            consumer.assign(partitions);
            consumer.seekToEnd(partitions);
            partitions.forEach(consumer::position);
        } catch (KafkaException | IllegalArgumentException e) {
            consumer.close(Duration.ZERO);
            throw e instanceof IllegalArgumentException iae ? iae
                    : new IllegalArgumentException("cannot read " + journalTopic + ": " + e.getMessage(), e);
        }
        JournalDecoder decoder = new JournalDecoder();
        Map<Long, String> locations = new HashMap<>();
        return new Watch() {
            @Override
            public Optional<RequestOutcome> await(String jobId, String requestId, Duration timeout) {
                long deadline = System.nanoTime() + timeout.toNanos();
                while (System.nanoTime() < deadline) {
                    for (ConsumerRecord<String, byte[]> record : consumer.poll(Duration.ofMillis(200))) {
                        if (!jobId.equals(record.key())) {
                            continue;
                        }
                        Object event = decode(decoder, journalTopic, record.value());
                        if (event instanceof CheckpointCompleted completed) {
                            locations.put(completed.getCheckpointId(), completed.getStorageLocation());
                        }
                        if (event instanceof RequestOutcome outcome && requestId.equals(outcome.getRequestId())
                                && outcome.getStatus() != RequestStatus.TRIGGERED) {
                            return Optional.of(outcome);
                        }
                    }
                }
                return Optional.empty();
            }

            @Override
            public Optional<String> location(Long checkpointId) {
                return Optional.ofNullable(checkpointId == null ? null : locations.get(checkpointId));
            }

            @Override
            public void close() {
                consumer.close(Duration.ofSeconds(5));
            }
        };
    }

    /** The journal event of a record, {@code null} when it does not decode (another release's, or corrupt). */
    private static Object decode(JournalDecoder decoder, String topic, byte[] value) {
        try {
            return decoder.decode(topic, value);
        } catch (RuntimeException e) {
            return null;
        }
    }
}
