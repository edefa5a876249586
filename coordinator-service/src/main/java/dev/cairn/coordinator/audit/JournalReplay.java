package dev.cairn.coordinator.audit;

import dev.cairn.coordinator.domain.CheckpointEvolver;
import dev.cairn.coordinator.domain.CoordinatorSettings;
import dev.cairn.coordinator.domain.InMemoryCoordinatorState;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.StringDeserializer;

/**
 * Audit replay: reads {@code cairn.journal} from the beginning to its current end (committed records
 * only) and folds every event with the coordinator's own {@link CheckpointEvolver}, rebuilding the state
 * the coordinator's stores hold — checkpoint by checkpoint, bit for bit.
 */
public final class JournalReplay {

    /** What a replay rebuilt. */
    public record Result(InMemoryCoordinatorState state, long events) {}

    private final Map<String, Object> consumerProperties;
    private final CoordinatorSettings settings;

    /**
     * @param bootstrapServers the cluster to read from
     * @param clientProperties extra client properties (security settings), may be empty
     * @param settings the settings the coordinator ran with (they bound what it keeps)
     */
    public JournalReplay(String bootstrapServers, Map<String, String> clientProperties, CoordinatorSettings settings) {
        this.consumerProperties = new HashMap<>(clientProperties);
        consumerProperties.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers);
        consumerProperties.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        consumerProperties.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, false);
        consumerProperties.put(ConsumerConfig.GROUP_ID_CONFIG, "cairn-audit-" + UUID.randomUUID());
        this.settings = settings;
    }

    /** Replays the whole journal topic, up to the end it has when the replay starts. */
    public Result replay(String journalTopic, Duration timeout) {
        InMemoryCoordinatorState state = new InMemoryCoordinatorState();
        CheckpointEvolver evolver = new CheckpointEvolver(settings);
        long events = 0;
        try (KafkaConsumer<String, JournalEnvelope> consumer = new KafkaConsumer<>(consumerProperties,
                new StringDeserializer(), CairnSerdes.journal().deserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(journalTopic, timeout).stream()
                    .map(info -> new TopicPartition(journalTopic, info.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions, timeout);
            long deadline = System.nanoTime() + timeout.toNanos();
            while (!reachedEnd(consumer, end)) {
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("journal " + journalTopic + " not read to its end within " + timeout);
                }
                for (ConsumerRecord<String, JournalEnvelope> record : consumer.poll(Duration.ofMillis(100))) {
                    evolver.evolve(state, (org.apache.avro.specific.SpecificRecord) record.value().getEvent());
                    events++;
                }
            }
        }
        return new Result(state, events);
    }

    private static boolean reachedEnd(KafkaConsumer<?, ?> consumer, Map<TopicPartition, Long> end) {
        return end.entrySet().stream().allMatch(e -> consumer.position(e.getKey()) >= e.getValue());
    }
}
