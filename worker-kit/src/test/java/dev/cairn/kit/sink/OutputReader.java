package dev.cairn.kit.sink;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/** Reads a whole topic, committed records only or everything, as the sink's downstream readers would. */
final class OutputReader implements AutoCloseable {

    private static final Duration READ_LIMIT = Duration.ofSeconds(30);

    private final KafkaConsumer<String, String> committed;
    private final KafkaConsumer<String, String> uncommitted;

    OutputReader(String bootstrapServers) {
        committed = consumer(bootstrapServers, "read_committed");
        uncommitted = consumer(bootstrapServers, "read_uncommitted");
    }

    private static KafkaConsumer<String, String> consumer(String bootstrapServers, String isolation) {
        return new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, isolation, ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 10),
                new StringDeserializer(), new StringDeserializer());
    }

    /** The values of every record of {@code topic} up to its current end. */
    List<String> values(String topic, boolean readCommitted) {
        return read(topic, readCommitted).stream().map(ConsumerRecord::value).toList();
    }

    /** The latest committed marker value per key on {@code <output>.commits}. */
    Map<String, String> markers(String output) {
        Map<String, String> markers = new HashMap<>();
        read(output + ".commits", true).forEach(record -> markers.put(record.key(), record.value()));
        return markers;
    }

    private List<ConsumerRecord<String, String>> read(String topic, boolean readCommitted) {
        KafkaConsumer<String, String> consumer = readCommitted ? committed : uncommitted;
        List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                .map(info -> new TopicPartition(topic, info.partition())).toList();
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions);
        List<ConsumerRecord<String, String>> records = new ArrayList<>();
        long deadline = System.nanoTime() + READ_LIMIT.toNanos();
        while (partitions.stream().anyMatch(p -> consumer.position(p) < ends.get(p))) {
            if (System.nanoTime() > deadline) {
                throw new AssertionError("could not read " + topic + " up to " + ends + " within " + READ_LIMIT);
            }
            consumer.poll(Duration.ofMillis(50)).forEach(records::add);
        }
        return records;
    }

    @Override
    public void close() {
        committed.close();
        uncommitted.close();
    }
}
