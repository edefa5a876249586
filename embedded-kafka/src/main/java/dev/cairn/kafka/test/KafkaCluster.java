package dev.cairn.kafka.test;

import dev.cairn.topics.TopicReadiness;
import java.time.Duration;
import java.util.Arrays;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.stream.Collectors;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.common.errors.TopicExistsException;

/**
 * A running Kafka cluster handed to tests by {@link KafkaClusterExtension}. It is shared by all test classes
 * of a JVM, so tests should use their own (for example randomly named) topics and consumer groups, and must
 * not stop it.
 */
public interface KafkaCluster {

    /**
     * The bootstrap address for clients.
     *
     * @return the value for the clients' {@code bootstrap.servers}
     */
    String bootstrapServers();

    /**
     * Where this cluster runs.
     *
     * @return the kind of this cluster
     */
    KafkaClusterKind kind();

    /**
     * Creates an admin client for this cluster. The caller closes it.
     *
     * @return a new admin client
     */
    default Admin createAdmin() {
        return createAdmin(Map.of());
    }

    /**
     * Creates an admin client for this cluster with extra configuration. The caller closes it.
     *
     * @param overrides admin client configuration applied on top of {@code bootstrap.servers}
     * @return a new admin client
     */
    default Admin createAdmin(Map<String, ?> overrides) {
        Map<String, Object> config = new HashMap<>();
        config.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrapServers());
        config.putAll(overrides);
        return Admin.create(config);
    }

    /**
     * Creates topics with replication factor 1 (existing topics are accepted as they are) and waits until
     * they are ready to be produced to, see {@link TopicReadiness}.
     *
     * @param partitions the number of partitions of each topic
     * @param topics     the topic names
     * @throws IllegalStateException if a topic could not be created
     * @throws dev.cairn.topics.TopicNotReadyException if a topic did not become ready within a minute
     */
    default void createTopics(int partitions, String... topics) {
        List<NewTopic> newTopics = Arrays.stream(topics)
                .map(name -> new NewTopic(name, partitions, (short) 1))
                .collect(Collectors.toList());
        try (Admin admin = createAdmin()) {
            for (Map.Entry<String, org.apache.kafka.common.KafkaFuture<Void>> created
                    : admin.createTopics(newTopics).values().entrySet()) {
                try {
                    created.getValue().get();
                } catch (ExecutionException e) {
                    if (!(e.getCause() instanceof TopicExistsException)) {
                        throw new IllegalStateException("Could not create topic " + created.getKey(), e.getCause());
                    }
                }
            }
            TopicReadiness.awaitReady(admin, Arrays.asList(topics), Duration.ofMinutes(1));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("Interrupted while creating topics " + Arrays.toString(topics), e);
        }
    }
}
