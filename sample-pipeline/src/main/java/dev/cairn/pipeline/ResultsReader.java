package dev.cairn.pipeline;

import java.time.Duration;
import java.util.Map;
import java.util.Set;
import java.util.stream.Collectors;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Reads the pipeline's results topic from the beginning with {@code isolation.level=read_committed}, so only what
 * completed checkpoints committed, and hands every result to an {@link ExactlyOnceCheck}. Each {@link #readToEnd}
 * goes on from where the previous stopped, up to the end (the last stable offsets) as of that call.
 */
public final class ResultsReader implements AutoCloseable {

    private static final Duration POLL = Duration.ofMillis(200);
    private static final Duration WAIT = Duration.ofSeconds(60);

    private final KafkaConsumer<String, String> consumer;
    private final Set<TopicPartition> partitions;
    private final ExactlyOnceCheck check;

    /** A reader of {@code topic} feeding {@code check}. */
    public ResultsReader(String bootstrapServers, String topic, ExactlyOnceCheck check) {
        this.check = check;
        this.consumer = new KafkaConsumer<>(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false), new StringDeserializer(), new StringDeserializer());
        this.partitions = consumer.partitionsFor(topic, WAIT).stream()
                .map(info -> new TopicPartition(topic, info.partition())).collect(Collectors.toSet());
        consumer.assign(partitions);
        consumer.seekToBeginning(partitions);
    }

    /**
     * Reads up to the end as of now; answers how many results it read.
     *
     * @throws IllegalStateException when the end is not reached within a minute
     */
    public long readToEnd() {
        Map<TopicPartition, Long> ends = consumer.endOffsets(partitions, WAIT);
        long before = check.resultsRead();
        long deadline = System.nanoTime() + WAIT.toNanos();
        while (!reached(ends)) {
            if (System.nanoTime() - deadline > 0) {
                throw new IllegalStateException("could not read the results up to " + ends + " within " + WAIT);
            }
            for (ConsumerRecord<String, String> record : consumer.poll(POLL)) {
                check.accept(record.key(), record.value());
            }
        }
        return check.resultsRead() - before;
    }

    private boolean reached(Map<TopicPartition, Long> ends) {
        return ends.entrySet().stream().allMatch(end -> consumer.position(end.getKey()) >= end.getValue());
    }

    @Override
    public void close() {
        consumer.close();
    }
}
