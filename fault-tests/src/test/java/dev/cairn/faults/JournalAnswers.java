package dev.cairn.faults;

import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Header;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * What the coordinator journaled on each input: {@code cairn.journal} read from its beginning (read_committed), each
 * event filed under the input record named by its headers {@value #INPUT_TOPIC} and {@value #INPUT_OFFSET} (the
 * coordinator's {@code StoreLayout} puts them on every journal record decided on an input; the partition is the
 * journal record's own). Read on the caller's thread, one caller at a time.
 */
final class JournalAnswers implements AutoCloseable {

    static final String INPUT_TOPIC = "cairn.input.topic";
    static final String INPUT_OFFSET = "cairn.input.offset";
    private static final Duration READ = Duration.ofSeconds(30);

    /** Where an input record was. */
    record Input(String topic, int partition, long offset) {
    }

    private final String journal;
    private final KafkaConsumer<byte[], byte[]> consumer;
    private final List<TopicPartition> partitions = new ArrayList<>();
    private final Map<Input, List<Object>> answers = new HashMap<>();

    JournalAnswers(String bootstrapServers, String journal) {
        this.journal = journal;
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed"), new ByteArrayDeserializer(),
                new ByteArrayDeserializer());
        consumer.partitionsFor(journal, READ).forEach(p -> partitions.add(new TopicPartition(journal, p.partition())));
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /** Reads the journal up to its committed end now. */
    synchronized void readToEnd() {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, READ);
        while (partitions.stream().anyMatch(p -> consumer.position(p, READ) < ends.get(p))) {
            for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                String topic = header(record, INPUT_TOPIC);
                String offset = header(record, INPUT_OFFSET);
                if (topic != null && offset != null) {
                    JournalEnvelope envelope = CairnSerdes.journal().deserializer().deserialize(journal,
                            record.value());
                    answers.computeIfAbsent(new Input(topic, record.partition(), Long.parseLong(offset)),
                            k -> new ArrayList<>()).add(envelope.getEvent());
                }
            }
        }
    }

    /** The events journaled on the input at {@code offset} of {@code topic}'s {@code partition}, in their order. */
    synchronized List<Object> on(String topic, int partition, long offset) {
        return List.copyOf(answers.getOrDefault(new Input(topic, partition, offset), List.of()));
    }

    private static String header(ConsumerRecord<?, ?> record, String name) {
        Header header = record.headers().lastHeader(name);
        return header == null ? null : new String(header.value(), StandardCharsets.UTF_8);
    }

    @Override
    public synchronized void close() {
        consumer.close(Duration.ofSeconds(5));
    }
}
