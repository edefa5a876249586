package dev.cairn.events.serde;

import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;

/**
 * Reads the schemas topic for a {@link SchemaCatalog}: each call makes a consumer (no group, nothing committed),
 * assigns every partition, reads from where the previous call stopped (the first: from the beginning) to the end
 * offsets it takes at the start, and closes the consumer, so that a catalog holds no connection between its rare
 * catch-ups and needs no closing. A call is bounded by its time limit: what was read by then is handed on and the
 * next call goes on from there. Keys and values are read as bytes, so no record can fail to deserialize.
 */
public final class SchemaTopicSource implements SchemaCatalog.Source {

    /**
     * How long one read may take by default: short, since a reader may wait for it inside a Kafka Streams
     * transaction (the coordinator's default transaction timeout is 5 s).
     */
    public static final Duration DEFAULT_TIMEOUT = Duration.ofSeconds(3);

    private static final Duration POLL = Duration.ofMillis(100);

    private final Map<String, Object> config;
    private final String topic;
    private final Duration timeout;
    /** The next offset to read per partition. Guarded by {@code this}. */
    private final Map<Integer, Long> positions = new HashMap<>();

    /**
     * @param consumerConfig the connection and security settings; settings a consumer does not know are left out,
     *     and the group, commits, offset reset and time-outs are set here
     * @param topic the schemas topic
     * @param timeout how long one read may take
     */
    public SchemaTopicSource(Map<String, ?> consumerConfig, String topic, Duration timeout) {
        this.topic = topic;
        this.timeout = timeout;
        this.config = new HashMap<>();
        consumerConfig.forEach((key, value) -> {
            if (ConsumerConfig.configNames().contains(key)) {
                config.put(key, value);
            }
        });
        Object clientId = config.get(ConsumerConfig.CLIENT_ID_CONFIG);
        config.put(ConsumerConfig.CLIENT_ID_CONFIG, (clientId == null ? "cairn" : clientId) + "-schemas-"
                + UUID.randomUUID().toString().substring(0, 8));
        config.remove(ConsumerConfig.GROUP_ID_CONFIG);
        config.remove(ConsumerConfig.GROUP_INSTANCE_ID_CONFIG);
        config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        config.put(ConsumerConfig.ALLOW_AUTO_CREATE_TOPICS_CONFIG, false);
        config.put(ConsumerConfig.FETCH_MAX_WAIT_MS_CONFIG, 50);
        int timeoutMs = (int) Math.max(1, Math.min(Integer.MAX_VALUE, timeout.toMillis()));
        config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG, timeoutMs);
        config.put(ConsumerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeoutMs);
    }

    /**
     * The records added since the previous call, up to the end offsets of now.
     *
     * @throws IllegalStateException when the topic does not exist
     * @throws org.apache.kafka.common.KafkaException when it cannot be read (time-out, authorization)
     */
    @Override
    public synchronized List<SchemaCatalog.Entry> readNew() {
        long deadline = System.nanoTime() + timeout.toNanos();
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<PartitionInfo> infos = consumer.partitionsFor(topic, remaining(deadline));
            if (infos == null || infos.isEmpty()) {
                throw new IllegalStateException("topic " + topic + " does not exist");
            }
            List<TopicPartition> partitions = infos.stream()
                    .map(info -> new TopicPartition(topic, info.partition())).toList();
            consumer.assign(partitions);
            Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, remaining(deadline));
            List<TopicPartition> open = new ArrayList<>();
            for (TopicPartition partition : partitions) {
                long end = ends.get(partition);
                long from = positions.getOrDefault(partition.partition(), 0L);
                if (from > end) {
                    from = 0; // the topic was made anew: read it again
                    positions.put(partition.partition(), from);
                }
                if (from < end) {
                    consumer.seek(partition, from);
                    open.add(partition);
                }
            }
            List<SchemaCatalog.Entry> read = new ArrayList<>();
            while (!open.isEmpty() && System.nanoTime() - deadline < 0) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(POLL)) {
                    read.add(new SchemaCatalog.Entry(record.key() == null ? null
                            : new String(record.key(), StandardCharsets.UTF_8), record.value(),
                            record.topic() + "-" + record.partition() + "@" + record.offset()));
                }
                for (TopicPartition partition : List.copyOf(open)) {
                    long position = consumer.position(partition, remaining(deadline));
                    positions.put(partition.partition(), position);
                    if (position >= ends.get(partition)) {
                        open.remove(partition);
                    }
                }
            }
            return read;
        }
    }

    private static Duration remaining(long deadlineNanos) {
        return Duration.ofNanos(Math.max(1_000_000, deadlineNanos - System.nanoTime()));
    }
}
