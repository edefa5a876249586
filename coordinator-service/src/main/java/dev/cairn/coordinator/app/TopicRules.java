package dev.cairn.coordinator.app;

import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
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
 *   <li>the journal keeps every record a rebuild may need: {@code retention.bytes} is -1, {@code cleanup.policy} does
 *       not compact, and {@code retention.ms} is -1 or, with snapshots on, at least {@link #RETENTION_INTERVALS}
 *       snapshot intervals. The coordinator rebuilds its stores (after an upgrade that changes their layout, under a
 *       new application id, after lost changelogs) from the newest snapshot of each partition and the journal after
 *       it, so a record deleted before a snapshot holds it loses its job's history;</li>
 *   <li>the snapshots topic only compacts ({@code cleanup.policy=compact}): a partition's newest snapshot is kept
 *       however old it is;</li>
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
    /**
     * How many snapshot intervals a finite journal retention must span at least: a partition is snapshotted once an
     * interval while its task runs, so its records outlive the next snapshot by a margin for a coordinator that was
     * down or failing to write snapshots for most of a day (at the default hourly interval).
     */
    static final int RETENTION_INTERVALS = 24;
    private static final String HISTORY = "the coordinator rebuilds its stores (after an upgrade that changes their "
            + "layout, under a new application id, after lost changelogs) from the newest snapshot and the journal "
            + "after it, so the jobs whose records are deleted before a snapshot holds them would be lost";

    private TopicRules() {
    }

    /**
     * What the coordinator runs with.
     *
     * @param topics               its topics
     * @param partitions           its {@code partitions} setting
     * @param minReplicationFactor its {@code min.replication.factor} setting
     * @param bootstrapServers     where Kafka is, for the commands a refusal shows
     * @param snapshotInterval     its {@code snapshot.interval.ms} setting (zero: no snapshots)
     */
    record Wanted(CairnTopics topics, int partitions, int minReplicationFactor, String bootstrapServers,
            Duration snapshotInterval) {

        Wanted {
            Objects.requireNonNull(topics, "topics");
            Objects.requireNonNull(bootstrapServers, "bootstrapServers");
            Objects.requireNonNull(snapshotInterval, "snapshotInterval");
        }

        /** With snapshots at the default interval. */
        Wanted(CairnTopics topics, int partitions, int minReplicationFactor, String bootstrapServers) {
            this(topics, partitions, minReplicationFactor, bootstrapServers,
                    CoordinatorConfig.DEFAULT_SNAPSHOT_INTERVAL);
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
            DescribedTopic snapshots = byName.get(wanted.topics().snapshots());
            if (snapshots != null) {
                snapshotsOnlyCompact(wanted, snapshots).ifPresent(refusals::add);
            }
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

    /**
     * Refusals of a journal that deletes records a rebuild may need: a retention by time shorter than
     * {@link #RETENTION_INTERVALS} snapshot intervals (any, without snapshots), by size, or compaction.
     */
    static List<String> journalKeepsEverything(Wanted wanted, DescribedTopic journal) {
        List<String> refusals = new ArrayList<>();
        String retentionMs = journal.config().get(RETENTION_MS);
        if (!KEEP_FOREVER.equals(retentionMs) && !coveredBySnapshots(wanted, retentionMs)) {
            long least = wanted.snapshotInterval().toMillis() * RETENTION_INTERVALS;
            String snapshots = wanted.snapshotInterval().isZero()
                    ? "snapshot.interval.ms is 0, so no snapshot holds what they delete. Turn snapshots on (a "
                            + "finite retention then needs at least " + RETENTION_INTERVALS + " snapshot intervals), "
                            + "or keep them forever: "
                    : "a finite retention needs at least " + RETENTION_INTERVALS + " snapshot intervals ("
                            + RETENTION_MS + "=" + least + duration(Long.toString(least)) + " at snapshot.interval.ms="
                            + wanted.snapshotInterval().toMillis() + "), so that a snapshot holds every record "
                            + "before it is deleted. Raise it: " + alterConfig(wanted, journal.topic(),
                            RETENTION_MS + "=" + least) + ", or keep them forever: ";
            refusals.add(journal.topic() + ": " + RETENTION_MS + " is " + retentionMs + duration(retentionMs)
                    + ", so the brokers delete journal records older than that; " + HISTORY + "; " + snapshots
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

    private static boolean coveredBySnapshots(Wanted wanted, String retentionMs) {
        try {
            long retention = Long.parseLong(retentionMs);
            return !wanted.snapshotInterval().isZero()
                    && retention >= wanted.snapshotInterval().toMillis() * RETENTION_INTERVALS;
        } catch (NumberFormatException | NullPointerException e) {
            return false;
        }
    }

    /**
     * The warning about a requests topic whose record timestamps are the writers' ({@code CreateTime}, as a topic made
     * by an earlier release has): the freshness check then compares a request's time with a timestamp its writer
     * chose, so a replay that sets both passes it (its request id or bytes, if seen within the window, still do not).
     * A warning, not a refusal, so that an upgrade in place starts.
     */
    static Optional<String> requestsAppendTime(Wanted wanted, DescribedTopic requests) {
        String type = requests.config().get(CairnTopics.MESSAGE_TIMESTAMP_TYPE);
        if (type == null || CairnTopics.LOG_APPEND_TIME.equals(type)) {
            return Optional.empty();
        }
        return Optional.of(requests.topic() + ": " + CairnTopics.MESSAGE_TIMESTAMP_TYPE + " is " + type + ", so a "
                + "request's record timestamp is whatever its writer set, and a replayed request can carry one that "
                + "makes it look fresh. Let the brokers stamp it: " + alterConfig(wanted, requests.topic(),
                CairnTopics.MESSAGE_TIMESTAMP_TYPE + "=" + CairnTopics.LOG_APPEND_TIME) + SEE);
    }

    /** The refusal of a snapshots topic that deletes (old) records instead of only compacting. */
    static Optional<String> snapshotsOnlyCompact(Wanted wanted, DescribedTopic snapshots) {
        String policy = snapshots.config().get(CLEANUP_POLICY);
        if (policy != null && Arrays.stream(policy.split(",")).map(String::trim).allMatch("compact"::equals)) {
            return Optional.empty();
        }
        return Optional.of(snapshots.topic() + ": " + CLEANUP_POLICY + " is " + policy + ", so the brokers delete "
                + "snapshots once they are older than the topic's retention, however new each partition's newest "
                + "is; a rebuild of a partition whose journal is trimmed needs it. Compact it only: "
                + alterConfig(wanted, snapshots.topic(), CLEANUP_POLICY + "=compact") + SEE);
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
