package dev.cairn.coordinator.app;

import dev.cairn.events.topics.CairnTopics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.stream.Collectors;

/**
 * The topics a coordinator refuses to start on, judged from what the brokers describe of them, and for each problem
 * what to change. In: the settings the coordinator runs with ({@link Wanted}) and Cairn's topics as described
 * ({@link DescribedTopic}), or why one could not be read. Out: one refusal per problem, naming the topic, the value
 * found and the command or setting that mends it; none when the coordinator may start. The rules:
 * <ul>
 *   <li>the journal keeps every record: {@code retention.ms} and {@code retention.bytes} are -1 and
 *       {@code cleanup.policy} does not compact. The coordinator rebuilds its stores from the whole journal (after an
 *       upgrade that changes their layout, under a new application id, after lost changelogs), so a record deleted
 *       from it loses its job's history;</li>
 *   <li>the journal has the {@code partitions} the coordinator runs with, and every other Cairn topic the journal's
 *       count: a stream task reads partition {@code p} of the requests and the acks and rebuilds its stores from
 *       partition {@code p} of the journal, and sidecars find a job's notifications and restore point on the same
 *       partition number;</li>
 *   <li>every topic has at least {@code min.replication.factor} replicas;</li>
 *   <li>a topic that cannot be read refuses too: the rules above cannot be judged without it, and a journal that
 *       deletes records loses jobs silently, long after a start-up warning scrolled by, while the mend is one ACL
 *       (the coordinator needs {@code Describe} on its topics to run at all; {@code DescribeConfigs} is the one a
 *       deployment may lack).</li>
 * </ul>
 * Nothing here talks to Kafka: {@link TopicChecks} reads the topics and refuses.
 */
final class TopicRules {

    /** Where a refusal sends an operator. */
    static final String SEE = " (docs/operations.md, Start-up checks)";
    static final String RETENTION_MS = "retention.ms";
    static final String RETENTION_BYTES = "retention.bytes";
    static final String CLEANUP_POLICY = "cleanup.policy";
    private static final String KEEP_FOREVER = "-1";
    private static final String HISTORY = "the coordinator rebuilds its stores from the whole journal (after an "
            + "upgrade that changes their layout, under a new application id, after lost changelogs), so the jobs "
            + "whose records are deleted would be lost";

    private TopicRules() {
    }

    /**
     * What the coordinator runs with.
     *
     * @param topics               its topics
     * @param partitions           its {@code partitions} setting
     * @param minReplicationFactor its {@code min.replication.factor} setting
     * @param bootstrapServers     where Kafka is, for the commands a refusal shows
     */
    record Wanted(CairnTopics topics, int partitions, int minReplicationFactor, String bootstrapServers) {

        Wanted {
            Objects.requireNonNull(topics, "topics");
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
        }
    }

    /**
     * Every refusal that applies, in a fixed order: topics that could not be read, the journal's retention and
     * cleanup policy, partition counts, replicas.
     *
     * @param described  the topics as the brokers describe them
     * @param unreadable the topics that could not be described, each with the error
     */
    static List<String> refusals(Wanted wanted, List<DescribedTopic> described, Map<String, String> unreadable) {
        Map<String, DescribedTopic> byName = new LinkedHashMap<>();
        described.forEach(topic -> byName.put(topic.topic(), topic));
        List<String> refusals = new ArrayList<>();
        unreadable(wanted, unreadable).ifPresent(refusals::add);
        DescribedTopic journal = byName.get(wanted.topics().journal());
        if (journal != null) {
            refusals.addAll(journalKeepsEverything(wanted, journal));
            journalPartitions(wanted, journal).ifPresent(refusals::add);
            for (String name : wanted.topics().all()) {
                DescribedTopic topic = byName.get(name);
                if (topic != null && topic != journal) {
                    sharesJournalPartitions(wanted, topic, journal).ifPresent(refusals::add);
                }
            }
        }
        refusals.addAll(replicas(wanted, described));
        return refusals;
    }

    /** Refusals of a journal that deletes records: finite retention by time or size, or compaction. */
    static List<String> journalKeepsEverything(Wanted wanted, DescribedTopic journal) {
        List<String> refusals = new ArrayList<>();
        String retentionMs = journal.config().get(RETENTION_MS);
        if (!KEEP_FOREVER.equals(retentionMs)) {
            refusals.add(journal.topic() + ": " + RETENTION_MS + " is " + retentionMs + duration(retentionMs)
                    + ", so the brokers delete journal records older than that; " + HISTORY + ". Keep them forever: "
                    + alterConfig(wanted, journal.topic(), RETENTION_MS + "=" + KEEP_FOREVER) + SEE);
        }
        String retentionBytes = journal.config().get(RETENTION_BYTES);
        if (!KEEP_FOREVER.equals(retentionBytes)) {
            refusals.add(journal.topic() + ": " + RETENTION_BYTES + " is " + retentionBytes + ", so the brokers "
                    + "delete the oldest records of a journal partition that holds more bytes than that; " + HISTORY
                    + ". Keep them forever: " + alterConfig(wanted, journal.topic(),
                    RETENTION_BYTES + "=" + KEEP_FOREVER) + SEE);
        }
        String policy = journal.config().get(CLEANUP_POLICY);
        if (policy == null || Arrays.stream(policy.split(",")).map(String::trim).anyMatch("compact"::equals)) {
            refusals.add(journal.topic() + ": " + CLEANUP_POLICY + " is " + policy + ", so the brokers keep only "
                    + "the newest journal record of each job id and delete the rest of its history; " + HISTORY
                    + ". Stop compacting it (what compaction removed already is gone): "
                    + alterConfig(wanted, journal.topic(), CLEANUP_POLICY + "=delete") + SEE);
        }
        return refusals;
    }

    /** The refusal of a journal whose partition count is not the coordinator's {@code partitions}. */
    static Optional<String> journalPartitions(Wanted wanted, DescribedTopic journal) {
        if (journal.partitions() == wanted.partitions()) {
            return Optional.empty();
        }
        return Optional.of(journal.topic() + " has " + journal.partitions() + " partitions, but the coordinator "
                + "runs with partitions=" + wanted.partitions() + ": a job's history is in the journal partition its "
                + "id maps to, so the journal's count cannot change, and every Cairn topic must have it. Start the "
                + "coordinator with --partitions=" + journal.partitions() + " (CAIRN_PARTITIONS, or partitions in "
                + "the --config file)" + SEE);
    }

    /** The refusal of a topic whose partition count is not the journal's. */
    static Optional<String> sharesJournalPartitions(Wanted wanted, DescribedTopic topic, DescribedTopic journal) {
        if (topic.partitions() == journal.partitions()) {
            return Optional.empty();
        }
        CairnTopics topics = wanted.topics();
        boolean input = topic.topic().equals(topics.requests()) || topic.topic().equals(topics.acks());
        String why = input
                ? "the coordinator reads partition p of " + topics.requests() + " and " + topics.acks() + " in the "
                        + "stream task that rebuilds its stores from partition p of the journal, so a job's requests "
                        + "and acks would reach a task that does not hold the job"
                : "every Cairn topic has the journal's count, so that a job's records have one partition number on "
                        + "all of them";
        String mend = topic.partitions() < journal.partitions()
                ? "Add partitions: kafka-topics.sh --bootstrap-server " + wanted.bootstrapServers() + " --alter "
                        + "--topic " + topic.topic() + " --partitions " + journal.partitions()
                : "A topic's partitions cannot be removed: once nothing on " + topic.topic() + " is left unread, "
                        + "delete it (kafka-topics.sh --bootstrap-server " + wanted.bootstrapServers() + " --delete "
                        + "--topic " + topic.topic() + ") and start the coordinator, which creates it with "
                        + journal.partitions() + " partitions";
        return Optional.of(topic.topic() + " has " + topic.partitions() + " partitions, " + journal.topic() + " "
                + journal.partitions() + ": " + why + ". " + mend + SEE);
    }

    /** One refusal per replica count below {@code min.replication.factor}, naming every topic that has it. */
    static List<String> replicas(Wanted wanted, List<DescribedTopic> described) {
        Map<Integer, List<String>> topicsByReplicas = new LinkedHashMap<>();
        for (DescribedTopic topic : described) {
            if (topic.replicas() < wanted.minReplicationFactor()) {
                topicsByReplicas.computeIfAbsent(topic.replicas(), r -> new ArrayList<>()).add(topic.topic());
            }
        }
        List<String> refusals = new ArrayList<>();
        topicsByReplicas.forEach((replicas, names) -> refusals.add(String.join(", ", names) + ": " + replicas
                + (replicas == 1 ? " replica" : " replicas") + ", fewer than min.replication.factor="
                + wanted.minReplicationFactor() + ". Add replicas with a partition reassignment that lists "
                + wanted.minReplicationFactor() + " brokers for every partition (kafka-reassign-partitions.sh "
                + "--bootstrap-server " + wanted.bootstrapServers() + " --reassignment-json-file replicas.json "
                + "--execute), or lower min.replication.factor" + SEE));
        return refusals;
    }

    /** The refusal of the topics that could not be described. */
    static Optional<String> unreadable(Wanted wanted, Map<String, String> unreadable) {
        if (unreadable.isEmpty()) {
            return Optional.empty();
        }
        List<String> reasons = unreadable.values().stream().distinct().toList();
        String why = reasons.size() <= 2 ? String.join("; ", reasons)
                : reasons.get(0) + "; and " + (reasons.size() - 1) + " other errors";
        String prefix = wanted.topics().prefix();
        String resources = prefix.isEmpty()
                ? unreadable.keySet().stream().map(name -> "--topic " + name).collect(Collectors.joining(" "))
                : "--topic " + prefix + " --resource-pattern-type prefixed";
        return Optional.of(String.join(", ", unreadable.keySet()) + ": the coordinator cannot read their partitions "
                + "and settings (" + why + "), so it cannot tell whether the journal keeps every record, whether "
                + "every topic has the journal's partition count and whether each has min.replication.factor "
                + "replicas. When it may not (an authorization error), let its principal describe them: "
                + "kafka-acls.sh --bootstrap-server " + wanted.bootstrapServers() + " --add --allow-principal "
                + "User:<the coordinator's principal> --operation Describe --operation DescribeConfigs " + resources
                + SEE);
    }

    private static String alterConfig(Wanted wanted, String topic, String setting) {
        return "kafka-configs.sh --bootstrap-server " + wanted.bootstrapServers() + " --alter --entity-type topics "
                + "--entity-name " + topic + " --add-config " + setting;
    }

    /** {@code " (7 days)"} for {@code 604800000}; empty for what is not a whole number of seconds or more. */
    private static String duration(String millis) {
        long ms;
        try {
            ms = Long.parseLong(millis);
        } catch (NumberFormatException e) {
            return "";
        }
        long[] units = {86_400_000L, 3_600_000L, 60_000L, 1_000L};
        String[] names = {"day", "hour", "minute", "second"};
        for (int i = 0; i < units.length; i++) {
            if (ms > 0 && ms % units[i] == 0) {
                long count = ms / units[i];
                return " (" + count + " " + names[i] + (count == 1 ? "" : "s") + ")";
            }
        }
        return "";
    }
}
