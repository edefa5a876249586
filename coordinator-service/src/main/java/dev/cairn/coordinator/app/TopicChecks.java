package dev.cairn.coordinator.app;

import dev.cairn.coordinator.app.TopicRules.Wanted;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.DescribeTopicsOptions;
import org.apache.kafka.clients.admin.TopicDescription;
import org.apache.kafka.common.errors.UnknownTopicOrPartitionException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Checks Cairn's topics before the coordinator trusts them: in, an admin client and the coordinator's settings; out,
 * nothing when {@link TopicRules} refuses none of them, else a {@link TopicsRefusedException} listing every refusal
 * (also logged as one ERROR). It reads the topics with {@link TopicDescriptions}; the judging is {@link TopicRules}'.
 *
 * <p>A topic it cannot describe refuses the start too ({@link TopicRules#unreadable}): what the check guards against,
 * a journal that deletes records, loses jobs silently and late (at the next rebuild of the stores), so a start-up
 * warning that scrolled by weeks before is no protection, while the mend (a {@code DescribeConfigs} ACL) is one
 * command. {@link KafkaDurability}, whose problems lose data only when brokers fail, warns instead.
 */
final class TopicChecks {

    private static final Logger LOG = LoggerFactory.getLogger(TopicChecks.class);

    private TopicChecks() {
    }

    /**
     * Before the topics are created: refuses when the journal exists with another partition count than
     * {@code partitions}, so that no topic is created with a count the coordinator would refuse next. Any other
     * problem (no journal yet, an error describing it) is left to {@link #check}.
     */
    static void checkBeforeCreating(Admin admin, CoordinatorConfig config, Duration timeout) {
        String journal = config.topics().journal();
        int millis = (int) Math.min(Integer.MAX_VALUE, timeout.toMillis());
        TopicDescription description;
        try {
            description = admin.describeTopics(List.of(journal), new DescribeTopicsOptions().timeoutMs(millis))
                    .topicNameValues().get(journal).get(millis, TimeUnit.MILLISECONDS);
        } catch (ExecutionException | TimeoutException e) {
            if (!(e.getCause() instanceof UnknownTopicOrPartitionException)) {
                LOG.debug("Cannot describe {} before creating the topics; the check after will say why", journal, e);
            }
            return;
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            return;
        }
        DescribedTopic described = new DescribedTopic(journal, description.partitions().size(), 0, Map.of());
        TopicRules.journalPartitions(wanted(config), described).ifPresent(refusal -> refuse(List.of(refusal)));
    }

    /**
     * Reads every Cairn topic and refuses to start on any that {@link TopicRules} refuses.
     *
     * @throws TopicsRefusedException listing every refusal
     */
    static void check(Admin admin, CoordinatorConfig config, Duration timeout) {
        TopicDescriptions.Read read = TopicDescriptions.read(admin, config.topics().all(), timeout);
        List<DescribedTopic> described = new ArrayList<>();
        Map<String, String> unreadable = new LinkedHashMap<>(read.unreadable());
        for (DescribedTopic topic : read.described()) {
            try {
                if (topic.topic().equals(config.topics().journal())) {
                    topic.value(TopicRules.RETENTION_MS);
                    topic.value(TopicRules.RETENTION_BYTES);
                    topic.value(TopicRules.CLEANUP_POLICY);
                }
                described.add(topic);
            } catch (IllegalStateException e) {
                unreadable.put(topic.topic(), e.toString());
            }
        }
        List<String> refusals = TopicRules.refusals(wanted(config), described, unreadable);
        if (!refusals.isEmpty()) {
            refuse(refusals);
        }
        described.stream().filter(topic -> topic.topic().equals(config.topics().requests())).findFirst()
                .flatMap(requests -> TopicRules.requestsAppendTime(wanted(config), requests))
                .ifPresent(warning -> LOG.warn("{}", warning));
        LOG.info("Checked topics {}*: the journal keeps every record no snapshot holds, every topic has its {} "
                + "partitions and at least {} replicas", config.topics().prefix(), config.partitions(),
                config.minReplicationFactor());
    }

    private static Wanted wanted(CoordinatorConfig config) {
        return new Wanted(config.topics(), config.partitions(), config.minReplicationFactor(),
                config.bootstrapServers(), config.snapshotInterval());
    }

    private static void refuse(List<String> refusals) {
        TopicsRefusedException refused = new TopicsRefusedException(refusals);
        LOG.error(refused.getMessage());
        throw refused;
    }
}
