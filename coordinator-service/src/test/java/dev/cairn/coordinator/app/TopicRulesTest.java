package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.app.TopicRules.Wanted;
import dev.cairn.events.topics.CairnTopics;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** Which topics the coordinator refuses to start on, and the refusal each problem gets. */
class TopicRulesTest {

    private static final CairnTopics TOPICS = CairnTopics.defaults();
    private static final Wanted WANTED = new Wanted(TOPICS, 3, 1, "kafka-1:9092");
    private static final String SEE = " (docs/operations.md, Start-up checks)";
    private static final String HISTORY = "the coordinator rebuilds its stores (after an upgrade that changes their "
            + "layout, under a new application id, after lost changelogs) from the newest snapshot and the journal "
            + "after it, so the jobs whose records are deleted before a snapshot holds them would be lost";

    @Test
    void shouldRefuseNothingWhenTheTopicsAreAsTheCoordinatorCreatesThem() {
        List<DescribedTopic> topics = asCreated(3, 1);

        assertThat(TopicRules.refusals(WANTED, topics, Map.of())).isEmpty();
    }

    @Test
    void shouldAcceptAJournalWithAFiniteRetentionWhenItSpansEnoughSnapshotIntervals() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), journal(3, "604800000", "-1", "delete"));

        assertThat(TopicRules.refusals(WANTED, topics, Map.of())).as("7 days at hourly snapshots").isEmpty();
        assertThat(TopicRules.refusals(new Wanted(TOPICS, 3, 1, "kafka-1:9092", Duration.ofHours(7)), topics,
                Map.of())).as("7 days at snapshots every 7 hours: exactly 24 intervals").isEmpty();
    }

    @Test
    void shouldRefuseAJournalWhoseRetentionSpansFewerThan24SnapshotIntervals() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), journal(3, "604800000", "-1", "delete"));

        List<String> refusals = TopicRules.refusals(new Wanted(TOPICS, 3, 1, "kafka-1:9092", Duration.ofHours(8)),
                topics, Map.of());

        assertThat(refusals).containsExactly("cairn.journal: retention.ms is 604800000 (7 days), so the brokers delete "
                + "journal records older than that; " + HISTORY + "; a finite retention needs at least 24 snapshot "
                + "intervals (retention.ms=691200000 (8 days) at snapshot.interval.ms=28800000), so that a snapshot "
                + "holds every record before it is deleted. Raise it: kafka-configs.sh --bootstrap-server "
                + "kafka-1:9092 --alter --entity-type topics --entity-name cairn.journal --add-config "
                + "retention.ms=691200000, or keep them forever: kafka-configs.sh --bootstrap-server kafka-1:9092 "
                + "--alter --entity-type topics --entity-name cairn.journal --add-config retention.ms=-1" + SEE);
    }

    @Test
    void shouldRefuseAJournalWithAFiniteRetentionWhenSnapshotsAreOff() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), journal(3, "604800000", "-1", "delete"));

        List<String> refusals = TopicRules.refusals(new Wanted(TOPICS, 3, 1, "kafka-1:9092", Duration.ZERO), topics,
                Map.of());

        assertThat(refusals).containsExactly("cairn.journal: retention.ms is 604800000 (7 days), so the brokers delete "
                + "journal records older than that; " + HISTORY + "; snapshot.interval.ms is 0, so no snapshot holds "
                + "what they delete. Turn snapshots on (a finite retention then needs at least 24 snapshot "
                + "intervals), or keep them forever: kafka-configs.sh --bootstrap-server kafka-1:9092 --alter "
                + "--entity-type topics --entity-name cairn.journal --add-config retention.ms=-1" + SEE);
    }

    @Test
    void shouldRefuseASnapshotsTopicThatDeletesOldRecords() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), topic(TOPICS.snapshots(), 3, 1, brokerDefaults()));

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of());

        assertThat(refusals).containsExactly("cairn.snapshots: cleanup.policy is delete, so the brokers delete "
                + "snapshots once they are older than the topic's retention, however new each partition's newest is; "
                + "a rebuild of a partition whose journal is trimmed needs it. Compact it only: kafka-configs.sh "
                + "--bootstrap-server kafka-1:9092 --alter --entity-type topics --entity-name cairn.snapshots "
                + "--add-config cleanup.policy=compact" + SEE);
    }

    @Test
    void shouldRefuseAJournalWithAFiniteRetentionInBytes() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), journal(3, "-1", "1073741824", "delete"));

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of());

        assertThat(refusals).containsExactly("cairn.journal: retention.bytes is 1073741824, so the brokers delete the "
                + "oldest records of a journal partition that holds more bytes than that; " + HISTORY + ". Keep them "
                + "forever: kafka-configs.sh --bootstrap-server kafka-1:9092 --alter --entity-type topics "
                + "--entity-name cairn.journal --add-config retention.bytes=-1" + SEE);
    }

    @Test
    void shouldRefuseACompactedJournal() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), journal(3, "-1", "-1", "compact"));

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of());

        assertThat(refusals).containsExactly("cairn.journal: cleanup.policy is compact, so the brokers keep only the "
                + "newest journal record of each job id and delete the rest of its history; " + HISTORY + ". Stop "
                + "compacting it (what compaction removed already is gone): kafka-configs.sh --bootstrap-server "
                + "kafka-1:9092 --alter --entity-type topics --entity-name cairn.journal --add-config "
                + "cleanup.policy=delete" + SEE);
    }

    @Test
    void shouldRefuseEachWayAJournalDeletesRecordsWhenItHasSeveral() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), journal(3, "3600000", "-1", "compact, delete"));

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of());

        assertThat(refusals).hasSize(2);
        assertThat(refusals.get(0)).startsWith("cairn.journal: retention.ms is 3600000 (1 hour), so");
        assertThat(refusals.get(1)).startsWith("cairn.journal: cleanup.policy is compact, delete, so");
    }

    @Test
    void shouldAcceptAFiniteRetentionOnTopicsOtherThanTheJournal() {
        List<DescribedTopic> topics = asCreated(3, 1);

        assertThat(topics).filteredOn(t -> t.topic().equals(TOPICS.requests()))
                .allSatisfy(t -> assertThat(t.config()).containsEntry("retention.ms", "604800000"));
        assertThat(TopicRules.refusals(WANTED, topics, Map.of())).isEmpty();
    }

    @Test
    void shouldRefuseAnInputTopicWithFewerPartitionsThanTheJournalAndSayHowToAddSome() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), topic(TOPICS.acks(), 2, 1, brokerDefaults()));

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of());

        assertThat(refusals).containsExactly("cairn.acks has 2 partitions, cairn.journal 3: the coordinator reads "
                + "partition p of cairn.requests and cairn.acks in the stream task that rebuilds its stores from "
                + "partition p of the journal, so a job's requests and acks would reach a task that does not hold the "
                + "job. Add partitions: kafka-topics.sh --bootstrap-server kafka-1:9092 --alter --topic cairn.acks "
                + "--partitions 3" + SEE);
    }

    @Test
    void shouldRefuseAnInputTopicWithMorePartitionsThanTheJournalAndSayHowToRecreateIt() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), topic(TOPICS.requests(), 6, 1, brokerDefaults()));

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of());

        assertThat(refusals).singleElement().asString()
                .startsWith("cairn.requests has 6 partitions, cairn.journal 3: the coordinator reads partition p")
                .endsWith("A topic's partitions cannot be removed: once nothing on cairn.requests is left unread, "
                        + "delete it (kafka-topics.sh --bootstrap-server kafka-1:9092 --delete --topic "
                        + "cairn.requests) and start the coordinator, which creates it with 3 partitions" + SEE);
    }

    @Test
    void shouldRefuseAnyOtherTopicWithAnotherPartitionCountThanTheJournal() {
        List<DescribedTopic> topics = replace(asCreated(3, 1), topic(TOPICS.control(), 2, 1, brokerDefaults()));

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of());

        assertThat(refusals).singleElement().asString().startsWith("cairn.control has 2 partitions, cairn.journal "
                + "3: every Cairn topic has the journal's count, so that a job's records have one partition number on "
                + "all of them. Add partitions: kafka-topics.sh");
    }

    @Test
    void shouldRefuseAJournalWhosePartitionCountIsNotTheConfiguredOne() {
        List<DescribedTopic> topics = asCreated(6, 1);

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of());

        assertThat(refusals).containsExactly("cairn.journal has 6 partitions, but the coordinator runs with "
                + "partitions=3: a job's history is in the journal partition its id maps to, so the journal's count "
                + "cannot change, and every Cairn topic must have it. Start the coordinator with --partitions=6 "
                + "(CAIRN_PARTITIONS, or partitions in the --config file)" + SEE);
    }

    @Test
    void shouldRefuseTopicsWithFewerReplicasThanTheMinimumOncePerReplicaCount() {
        List<DescribedTopic> topics = replace(replace(asCreated(3, 3), topic(TOPICS.requests(), 3, 1,
                brokerDefaults())), topic(TOPICS.acks(), 3, 2, brokerDefaults()));
        topics = replace(topics, topic(TOPICS.dlq(), 3, 1, brokerDefaults()));

        List<String> refusals = TopicRules.refusals(new Wanted(TOPICS, 3, 3, "kafka-1:9092"), topics, Map.of());

        assertThat(refusals).containsExactly(
                "cairn.requests, cairn.dlq: 1 replica, fewer than min.replication.factor=3. Add replicas with a "
                        + "partition reassignment that lists 3 brokers for every partition "
                        + "(kafka-reassign-partitions.sh --bootstrap-server kafka-1:9092 --reassignment-json-file "
                        + "replicas.json --execute), or lower min.replication.factor" + SEE,
                "cairn.acks: 2 replicas, fewer than min.replication.factor=3. Add replicas with a partition "
                        + "reassignment that lists 3 brokers for every partition (kafka-reassign-partitions.sh "
                        + "--bootstrap-server kafka-1:9092 --reassignment-json-file replicas.json --execute), or lower "
                        + "min.replication.factor" + SEE);
    }

    @Test
    void shouldAcceptTopicsWithTheMinimumReplicasOrMore() {
        List<DescribedTopic> topics = replace(asCreated(3, 3), topic(TOPICS.acks(), 3, 5, brokerDefaults()));

        assertThat(TopicRules.refusals(new Wanted(TOPICS, 3, 3, "kafka-1:9092"), topics, Map.of())).isEmpty();
    }

    @Test
    void shouldRefuseTopicsThatCannotBeDescribedAndSayWhatToGrant() {
        List<DescribedTopic> topics = without(without(asCreated(3, 1), TOPICS.journal()), TOPICS.acks());
        Map<String, String> unreadable = new LinkedHashMap<>();
        unreadable.put(TOPICS.acks(), "org.apache.kafka.common.errors.TopicAuthorizationException: denied");
        unreadable.put(TOPICS.journal(), "org.apache.kafka.common.errors.TopicAuthorizationException: denied");

        List<String> refusals = TopicRules.refusals(WANTED, topics, unreadable);

        assertThat(refusals).containsExactly("cairn.acks, cairn.journal: the coordinator cannot read their partitions "
                + "and settings (org.apache.kafka.common.errors.TopicAuthorizationException: denied), so it cannot "
                + "tell whether the journal keeps every record, whether every topic has the journal's partition count "
                + "and whether each has min.replication.factor replicas. When it may not (an authorization error), "
                + "let its principal describe them: kafka-acls.sh --bootstrap-server kafka-1:9092 --add "
                + "--allow-principal User:<the coordinator's principal> --operation Describe --operation "
                + "DescribeConfigs --topic cairn. --resource-pattern-type prefixed" + SEE);
    }

    @Test
    void shouldNameEveryUnreadableTopicInTheAclWhenTheTopicsHaveNoPrefix() {
        CairnTopics bare = new CairnTopics("");
        Map<String, String> unreadable = new LinkedHashMap<>();
        unreadable.put(bare.journal(), "org.apache.kafka.common.errors.TimeoutException: slow");
        unreadable.put(bare.dlq(), "java.lang.IllegalStateException: the broker did not describe retention.ms");
        unreadable.put(bare.acks(), "org.apache.kafka.common.errors.TimeoutException: slow");

        List<String> refusals = TopicRules.refusals(new Wanted(bare, 3, 1, "k:9092"), List.of(), unreadable);

        assertThat(refusals).singleElement().asString()
                .contains("(org.apache.kafka.common.errors.TimeoutException: slow; "
                        + "java.lang.IllegalStateException: the broker did not describe retention.ms)")
                .endsWith("--operation DescribeConfigs --topic journal --topic dlq --topic acks" + SEE);
    }

    @Test
    void shouldJudgeNoPartitionCountWhenTheJournalCannotBeDescribed() {
        List<DescribedTopic> topics = replace(without(asCreated(3, 1), TOPICS.journal()),
                topic(TOPICS.requests(), 5, 1, brokerDefaults()));

        List<String> refusals = TopicRules.refusals(WANTED, topics, Map.of(TOPICS.journal(), "denied"));

        assertThat(refusals).singleElement().asString().startsWith("cairn.journal: the coordinator cannot read");
    }

    @Test
    void shouldWarnOfARequestsTopicStampedWithTheWritersTimeAndSayHowToSwitchIt() {
        DescribedTopic made = topic(TOPICS.requests(), 3, 1, Map.of("message.timestamp.type", "CreateTime"));

        assertThat(TopicRules.requestsAppendTime(WANTED, made)).hasValueSatisfying(warning -> assertThat(warning)
                .startsWith("cairn.requests: message.timestamp.type is CreateTime, so a request's record timestamp")
                .contains("kafka-configs.sh --bootstrap-server kafka-1:9092 --alter --entity-type topics "
                        + "--entity-name cairn.requests --add-config message.timestamp.type=LogAppendTime"));
    }

    @Test
    void shouldNotWarnOfARequestsTopicAsTheCoordinatorCreatesIt() {
        DescribedTopic created = asCreated(3, 1).stream().filter(t -> t.topic().equals(TOPICS.requests()))
                .findFirst().orElseThrow();

        assertThat(created.config()).containsEntry("message.timestamp.type", "LogAppendTime");
        assertThat(TopicRules.requestsAppendTime(WANTED, created)).isEmpty();
    }

    /** Every Cairn topic as the coordinator creates it on brokers with Kafka's defaults. */
    private static List<DescribedTopic> asCreated(int partitions, int replicas) {
        List<DescribedTopic> topics = new ArrayList<>();
        TOPICS.withConfigs().forEach((name, config) -> {
            Map<String, String> effective = new HashMap<>(brokerDefaults());
            effective.putAll(config);
            topics.add(topic(name, partitions, replicas, effective));
        });
        topics.sort((a, b) -> Integer.compare(TOPICS.all().indexOf(a.topic()), TOPICS.all().indexOf(b.topic())));
        return topics;
    }

    private static Map<String, String> brokerDefaults() {
        return Map.of("retention.ms", "604800000", "retention.bytes", "-1", "cleanup.policy", "delete");
    }

    private static DescribedTopic journal(int partitions, String retentionMs, String retentionBytes, String policy) {
        return topic(TOPICS.journal(), partitions, 1, Map.of("retention.ms", retentionMs, "retention.bytes",
                retentionBytes, "cleanup.policy", policy));
    }

    private static DescribedTopic topic(String name, int partitions, int replicas, Map<String, String> config) {
        return new DescribedTopic(name, partitions, replicas, config);
    }

    private static List<DescribedTopic> replace(List<DescribedTopic> topics, DescribedTopic replacement) {
        return topics.stream().map(t -> t.topic().equals(replacement.topic()) ? replacement : t).toList();
    }

    private static List<DescribedTopic> without(List<DescribedTopic> topics, String name) {
        return topics.stream().filter(t -> !t.topic().equals(name)).toList();
    }
}
