package dev.cairn.topics;

import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.CreateTopicsResult;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Creates Cairn's topics idempotently at start-up and waits until they can take writes. A topic is created with the
 * replication factor asked for, or, for {@value #BROKER_DEFAULT_REPLICAS}, with the brokers' own
 * {@code default.replication.factor} (as Kafka Streams creates its internal topics since Kafka 3.0).
 *
 * <p>Topics that exist already are kept as they are, whatever their partition count and configuration: whether the
 * coordinator may run on them is the coordinator's start-up check to judge. After creation it waits until every
 * partition has a leader and answers a ListOffsets request, since producing to a topic right after its creation can
 * lose the first batch (KAFKA-15591).
 */
public final class TopicInitializer {

    /** The replication factor that leaves the count to the brokers' {@code default.replication.factor}. */
    public static final short BROKER_DEFAULT_REPLICAS = -1;

    private static final Logger LOG = LoggerFactory.getLogger(TopicInitializer.class);

    private final Admin admin;
    private final Duration timeout;

    public TopicInitializer(Admin admin, Duration timeout) {
        this.admin = admin;
        this.timeout = timeout;
    }

    /**
     * Makes sure every topic of {@code topics} exists with {@code partitions} partitions and is ready.
     *
     * @param replicationFactor the replicas of each topic it creates, or {@value #BROKER_DEFAULT_REPLICAS}: as many
     *     as the brokers' {@code default.replication.factor}
     * @return the names of the topics this call created
     * @throws IllegalStateException when a topic cannot be created
     * @throws TopicNotReadyException when a topic is not ready in time
     */
    public List<String> ensure(CairnTopics topics, int partitions, short replicationFactor) {
        if (partitions < 1) {
            throw new IllegalArgumentException("partitions must be at least 1, was " + partitions);
        }
        if (replicationFactor != BROKER_DEFAULT_REPLICAS && replicationFactor < 1) {
            throw new IllegalArgumentException("replication factor must be " + BROKER_DEFAULT_REPLICAS + " (the "
                    + "brokers' default.replication.factor) or at least 1, was " + replicationFactor);
        }
        Optional<Short> replicas = replicationFactor == BROKER_DEFAULT_REPLICAS ? Optional.empty()
                : Optional.of(replicationFactor);
        List<NewTopic> wanted = new ArrayList<>();
        topics.withConfigs().forEach((name, config) ->
                wanted.add(new NewTopic(name, Optional.of(partitions), replicas).configs(config)));
        CreateTopicsResult result = admin.createTopics(wanted);
        List<String> created = new ArrayList<>();
        for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<Void>> entry : result.values().entrySet()) {
            try {
                entry.getValue().get(timeout.toMillis(), TimeUnit.MILLISECONDS);
                created.add(entry.getKey());
            } catch (ExecutionException e) {
                if (!(e.getCause() instanceof TopicExistsException)) {
                    throw new IllegalStateException("cannot create topic " + entry.getKey() + ": "
                            + e.getCause().getMessage(), e.getCause());
                }
            } catch (TimeoutException e) {
                throw new IllegalStateException("creating topic " + entry.getKey() + " took longer than " + timeout, e);
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                throw new IllegalStateException("interrupted while creating topics", e);
            }
        }
        TopicReadiness.awaitReady(admin, topics.all(), timeout);
        if (!created.isEmpty()) {
            LOG.info("Created topics {} with {} partitions, replication factor {}", created, partitions,
                    replicas.map(String::valueOf).orElse("of the brokers' default"));
        }
        return created;
    }
}
