package dev.cairn.coordinator.app;

import dev.cairn.coordinator.app.DurabilityRules.TopicSettings;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.ListTopicsOptions;
import org.apache.kafka.common.config.TopicConfig;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Reads, at start-up, what the brokers keep of Cairn's topics and of this application's changelog topics (the
 * replication factor from {@code DescribeTopics}, the effective {@code min.insync.replicas} and
 * {@code unclean.leader.election.enable} from {@code DescribeConfigs}, through {@link TopicDescriptions}) and logs one
 * WARN per problem {@link DurabilityRules} finds. It never fails start-up: a topic it cannot describe (no
 * {@code Describe} or {@code DescribeConfigs} permission, a time-out) gets one WARN that says so and why. (Cairn's own
 * topics were read before processing started, by {@link TopicChecks}, which refuses to start without them.)
 *
 * <p>Changelog topics are those named {@code <application id>-...-changelog} that exist when the check runs: the
 * first start of an application checks them from its next start, since Kafka Streams creates them once the
 * instance joins its group.
 */
final class KafkaDurability {

    private static final Logger LOG = LoggerFactory.getLogger(KafkaDurability.class);

    private KafkaDurability() {
    }

    /**
     * Checks, on a daemon thread of its own, the topics of {@code config} with an admin client made of
     * {@code adminConfig}; completes with the warnings it logged (never exceptionally).
     */
    static CompletableFuture<List<String>> checkInBackground(CoordinatorConfig config, Map<String, Object> adminConfig,
            Duration timeout) {
        return CompletableFuture.supplyAsync(() -> {
            try (Admin admin = Admin.create(adminConfig)) {
                String applicationId = config.applicationId();
                return check(admin, topicsOf(admin, config.topics(), applicationId, timeout), applicationId, timeout);
            } catch (RuntimeException e) {
                return List.of(warn(couldNotCheck(config.topics().all(), config.applicationId(), e.toString())));
            }
        }, task -> {
            Thread thread = new Thread(task, "cairn-durability-check");
            thread.setDaemon(true);
            thread.start();
        });
    }

    /** Cairn's topics, then the changelog topics of {@code applicationId} that exist now, by name. */
    static List<String> topicsOf(Admin admin, CairnTopics topics, String applicationId, Duration timeout) {
        List<String> names = new ArrayList<>(topics.all());
        try {
            admin.listTopics(new ListTopicsOptions().timeoutMs(millis(timeout))).names()
                    .get(millis(timeout), TimeUnit.MILLISECONDS).stream()
                    .filter(name -> name.startsWith(applicationId + "-")
                            && name.endsWith(DurabilityRules.CHANGELOG_SUFFIX))
                    .sorted()
                    .forEach(names::add);
        } catch (ExecutionException | TimeoutException e) {
            // the changelogs go unchecked; Cairn's own topics are still described, and fail the same way if they must
            LOG.debug("Cannot list the changelog topics of {}", applicationId, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
        return names;
    }

    /**
     * Describes {@code topics}, logs one WARN per problem found (and one for the topics it could not describe), and
     * returns those warnings in the order logged.
     *
     * @param applicationId the coordinator's application id, whose changelog topics a warning counts
     */
    static List<String> check(Admin admin, Collection<String> topics, String applicationId, Duration timeout) {
        TopicDescriptions.Read read = TopicDescriptions.read(admin, topics, timeout);
        List<TopicSettings> settings = new ArrayList<>();
        Map<String, String> unchecked = new LinkedHashMap<>(read.unreadable());
        for (DescribedTopic topic : read.described()) {
            try {
                settings.add(new TopicSettings(topic.topic(), topic.replicas(),
                        Integer.parseInt(topic.value(TopicConfig.MIN_IN_SYNC_REPLICAS_CONFIG)),
                        Boolean.parseBoolean(topic.value(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG))));
            } catch (IllegalStateException | NumberFormatException e) {
                unchecked.put(topic.topic(), e.toString());
            }
        }
        List<String> warnings = new ArrayList<>();
        DurabilityRules.warnings(settings, applicationId).forEach(warning -> warnings.add(warn(warning)));
        if (!unchecked.isEmpty()) {
            List<String> reasons = List.copyOf(new LinkedHashSet<>(unchecked.values()));
            String why = reasons.size() <= 2 ? String.join("; ", reasons)
                    : reasons.get(0) + "; and " + (reasons.size() - 1) + " other errors";
            warnings.add(warn(couldNotCheck(List.copyOf(unchecked.keySet()), applicationId, why)));
        }
        return warnings;
    }

    /** The one warning for topics whose settings could not be read. */
    static String couldNotCheck(List<String> topics, String applicationId, String why) {
        return "Could not check whether Kafka keeps what Cairn writes to "
                + DurabilityRules.names(topics, applicationId)
                + " (their replication factor, min.insync.replicas and unclean.leader.election.enable): " + why
                + "; check them by hand" + DurabilityRules.SEE;
    }

    private static String warn(String warning) {
        LOG.warn(warning);
        return warning;
    }

    private static int millis(Duration timeout) {
        return (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
    }
}
