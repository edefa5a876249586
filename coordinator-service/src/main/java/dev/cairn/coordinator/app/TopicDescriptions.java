package dev.cairn.coordinator.app;

import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.clients.admin.DescribeConfigsOptions;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.KafkaFuture;
import org.apache.kafka.common.config.ConfigResource;

/**
 * Reads what the brokers describe of topics, with one {@code DescribeTopics} and one {@code DescribeConfigs} request:
 * in, topic names; out, each topic's partition count, replication factor and effective configuration
 * ({@link DescribedTopic}), or, for a topic that could not be read (no {@code Describe} or {@code DescribeConfigs}
 * permission, no such topic, a time-out), why. It judges nothing and never throws for one topic.
 */
final class TopicDescriptions {

    private TopicDescriptions() {
    }

    /**
     * What was read.
     *
     * @param described  the topics read, in the order asked for
     * @param unreadable the topics that could not be read, in the order asked for, each with the error (e.g.
     *                   {@code org.apache.kafka.common.errors.TopicAuthorizationException: ...})
     */
    record Read(List<DescribedTopic> described, Map<String, String> unreadable) {

        Read {
            described = List.copyOf(described);
            unreadable = Collections.unmodifiableMap(new LinkedHashMap<>(unreadable));
        }
    }

    /** Describes {@code topics}, waiting up to {@code timeout} for each answer. */
    static Read read(Admin admin, Collection<String> topics, Duration timeout) {
        Set<String> names = new LinkedHashSet<>(topics);
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        Map<String, KafkaFuture<TopicDescription>> descriptions = admin.describeTopics(names,
                new DescribeTopicsOptions().timeoutMs(millis)).topicNameValues();
        Map<ConfigResource, KafkaFuture<Config>> configs = admin.describeConfigs(names.stream()
                .map(TopicDescriptions::resource).toList(), new DescribeConfigsOptions().timeoutMs(millis)).values();
        List<DescribedTopic> described = new ArrayList<>();
        Map<String, String> unreadable = new LinkedHashMap<>();
        for (String name : names) {
            try {
                described.add(described(name, descriptions.get(name).get(millis, TimeUnit.MILLISECONDS),
                        configs.get(resource(name)).get(millis, TimeUnit.MILLISECONDS)));
            } catch (ExecutionException e) {
                unreadable.put(name, e.getCause().toString());
            } catch (TimeoutException | IllegalStateException e) {
                unreadable.put(name, e.toString());
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
                unreadable.put(name, "interrupted");
            }
        }
        return new Read(described, unreadable);
    }

    private static DescribedTopic described(String name, TopicDescription description, Config config) {
        int replicas = description.partitions().stream()
                .mapToInt(partition -> partition.replicas().size())
                .min().orElseThrow(() -> new IllegalStateException("the broker described no partition of " + name));
        Map<String, String> values = new HashMap<>();
        for (ConfigEntry entry : config.entries()) {
            if (entry.value() != null) {
                values.put(entry.name(), entry.value());
            }
        }
        return new DescribedTopic(name, description.partitions().size(), replicas, values);
    }

    private static ConfigResource resource(String topic) {
        return new ConfigResource(ConfigResource.Type.TOPIC, topic);
    }
}
