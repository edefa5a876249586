package dev.cairn.coordinator.app;

import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Optional;
import java.util.function.Function;

/**
 * Which of Cairn's topics Kafka may lose acknowledged writes of, judged from the settings the brokers describe for
 * them, and the warning an operator is given for each problem. Cairn's producers write with {@code acks=all}: a write
 * is acknowledged once every in-sync replica has it, and at least {@code min.insync.replicas} replicas must be in
 * sync. Three settings let Kafka lose a write it acknowledged:
 * <ul>
 *   <li>one replica: every record is lost with that broker's disk, and while the broker restarts the coordinator's
 *       transactions can stay open or be taken back ({@code docs/operations.md}, Broker crashes);</li>
 *   <li>{@code min.insync.replicas} of 1 with more replicas: a write one broker acknowledged is lost when that broker
 *       dies before the others copied it;</li>
 *   <li>{@code unclean.leader.election.enable=true}: a replica that missed acknowledged writes can become leader,
 *       and those records vanish and their offsets are reused by other records.</li>
 * </ul>
 * A topic with one replica is not warned of its {@code min.insync.replicas} too (there is no other copy to wait
 * for). Every problem is one warning, naming every topic that has it with the same values, in the order given
 * ({@link #names}: the application's changelog topics as their count and pattern). Nothing here talks to Kafka:
 * {@link KafkaDurability} reads the settings and logs the warnings.
 */
final class DurabilityRules {

    /** Where the warnings send an operator. */
    static final String SEE = " (docs/operations.md, What Kafka can lose)";
    /** How the name of a Kafka Streams changelog topic ends. */
    static final String CHANGELOG_SUFFIX = "-changelog";

    private DurabilityRules() {
    }

    /**
     * One topic's settings, as the brokers describe them.
     *
     * @param topic                  the topic's name
     * @param replicas               its replication factor (the fewest replicas of any of its partitions)
     * @param minInsyncReplicas      its effective {@code min.insync.replicas}
     * @param uncleanLeaderElection  its effective {@code unclean.leader.election.enable}
     */
    record TopicSettings(String topic, int replicas, int minInsyncReplicas, boolean uncleanLeaderElection) {

        TopicSettings {
            Objects.requireNonNull(topic, "topic");
        }
    }

    /**
     * The warnings that apply to {@code topics}: none when Kafka keeps every acknowledged write of each.
     *
     * @param applicationId the coordinator's application id, whose changelog topics a warning counts
     */
    static List<String> warnings(List<TopicSettings> topics, String applicationId) {
        List<String> warnings = new ArrayList<>();
        warnings.addAll(grouped(topics, applicationId, DurabilityRules::oneReplica));
        warnings.addAll(grouped(topics, applicationId, DurabilityRules::oneInsyncReplica));
        warnings.addAll(grouped(topics, applicationId, DurabilityRules::uncleanElection));
        return warnings;
    }

    /**
     * The topics as a warning names them: in the order given, with two or more changelog topics of
     * {@code applicationId} as one item, e.g. {@code cairn.journal, cairn.control and 13 changelog topics
     * (coordinator-*-changelog)}.
     */
    static String names(List<String> topics, String applicationId) {
        String prefix = applicationId + "-";
        List<String> changelogs = topics.stream()
                .filter(topic -> topic.startsWith(prefix) && topic.endsWith(CHANGELOG_SUFFIX)).toList();
        if (changelogs.size() < 2) {
            return String.join(", ", topics);
        }
        List<String> others = topics.stream().filter(topic -> !changelogs.contains(topic)).toList();
        String counted = changelogs.size() + " changelog topics (" + prefix + "*" + CHANGELOG_SUFFIX + ")";
        return others.isEmpty() ? counted : String.join(", ", others) + " and " + counted;
    }

    private static Optional<String> oneReplica(TopicSettings topic) {
        if (topic.replicas() > 1) {
            return Optional.empty();
        }
        return Optional.of("replication factor is " + topic.replicas() + ": every record is lost with that broker's "
                + "disk, and while the broker restarts Kafka can leave the coordinator's transaction open (its jobs "
                + "stop) or take back what it committed; use 3 replicas on three or more brokers "
                + "(when the coordinator creates the topics: default.replication.factor=3 on the brokers, or "
                + "--replication-factor=3)");
    }

    private static Optional<String> oneInsyncReplica(TopicSettings topic) {
        if (topic.replicas() <= 1 || topic.minInsyncReplicas() > 1) {
            return Optional.empty();
        }
        return Optional.of("min.insync.replicas is " + topic.minInsyncReplicas() + " with " + topic.replicas()
                + " replicas: a write acknowledged by one broker is lost if that broker dies before the others copy "
                + "it; set min.insync.replicas=2");
    }

    private static Optional<String> uncleanElection(TopicSettings topic) {
        if (!topic.uncleanLeaderElection()) {
            return Optional.empty();
        }
        return Optional.of("unclean.leader.election.enable is true: a replica that missed acknowledged writes can "
                + "become leader, and those records vanish and their offsets are reused by other records; set "
                + "unclean.leader.election.enable=false");
    }

    /** One warning per distinct problem, naming the topics that have it. */
    private static List<String> grouped(List<TopicSettings> topics, String applicationId,
            Function<TopicSettings, Optional<String>> rule) {
        Map<String, List<String>> topicsByProblem = new LinkedHashMap<>();
        for (TopicSettings topic : topics) {
            rule.apply(topic).ifPresent(problem ->
                    topicsByProblem.computeIfAbsent(problem, p -> new ArrayList<>()).add(topic.topic()));
        }
        List<String> warnings = new ArrayList<>();
        topicsByProblem.forEach((problem, names) -> warnings.add(names(names, applicationId) + ": " + problem + SEE));
        return warnings;
    }
}
