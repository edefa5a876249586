package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.app.CoordinatorMainTest.Result;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.topics.TopicReadiness;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.GroupListing;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.streams.KafkaStreams;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The start-up check of Cairn's topics on a real broker, run as users run the coordinator: its command, signed with a
 * master key, with a REST tokens file and the default replication factor (the brokers'). A journal created beforehand
 * with the broker's 7-day retention while snapshots come every 8 hours (fewer than 24 in 7 days), a compacted
 * journal, an input topic with another partition count than the journal's, and a journal of another count than
 * {@code --partitions} each make it exit with 1 and say what to change, before Kafka Streams joined any group; with
 * hourly snapshots (the default), the same command starts (and still warns of the single replica its topics got from
 * the broker's default replication factor). And a coordinator of a new application id, which rebuilds its stores
 * from the journal, over a journal partition whose first records were deleted and no snapshot, folds nothing of it
 * and exits with 1 naming the partition and its first offset.
 */
@ExtendWith(KafkaClusterExtension.class)
class TopicChecksIT {

    private static final String SEE = " (docs/operations.md, Start-up checks)";

    @TempDir
    Path dir;

    private final CairnTopics topics = new CairnTopics("checks-" + UUID.randomUUID().toString().substring(0, 8) + ".");
    private final String application = "checks-" + UUID.randomUUID();
    private Path masterKey;
    private Path tokens;

    @BeforeEach
    void writeTheKeys() throws Exception {
        masterKey = Files.writeString(dir.resolve("master.key"), SigningKey.generate().toBase64() + "\n");
        tokens = Files.writeString(dir.resolve("tokens.properties"), "ops.token=" + CoordinatorTestBed.REST_TOKEN
                + "\n");
    }

    @Test
    void shouldRefuseAJournalRetentionOfTooFewSnapshotIntervalsAndStartOnceSnapshotsCoverIt(KafkaCluster kafka)
            throws Exception {
        kafka.createTopics(2, topics.journal());
        try (Admin admin = kafka.createAdmin()) {
            String retention = admin.describeConfigs(List.of(journal())).all().get().get(journal())
                    .get("retention.ms").value();
            String[] eightHourSnapshots = Stream.concat(Arrays.stream(flags(kafka, topics, 2)),
                    Stream.of("--snapshot-interval-ms", "28800000")).toArray(String[]::new);

            Result refused = CoordinatorMainTest.runWith(Map.of(), eightHourSnapshots);

            assertThat(refused.exit()).as(refused.err()).isEqualTo(CoordinatorMain.EXIT_REFUSED);
            assertThat(refused.err()).startsWith("cairn-coordinator: The coordinator does not start: Cairn's topics "
                    + "are not fit to run on\n  - " + topics.journal() + ": retention.ms is " + retention)
                    .contains(", so the brokers delete journal records older than that; the coordinator rebuilds its "
                            + "stores (after an upgrade that changes their layout")
                    .contains("a finite retention needs at least 24 snapshot intervals")
                    .contains("Raise it: kafka-configs.sh --bootstrap-server " + kafka.bootstrapServers()
                            + " --alter --entity-type topics --entity-name " + topics.journal() + " --add-config "
                            + "retention.ms=691200000, or keep them forever")
                    .doesNotContain("cleanup.policy", "partitions,", "replica,");
            assertThat(refused.err().lines().filter(line -> line.startsWith("  - "))).hasSize(1);
            assertNoMemberEverJoined(admin);

            CoordinatorConfig config = CoordinatorMainTest.parseWith(Map.of(), flags(kafka, topics, 2)).config();
            assertThat(config.snapshotInterval()).as("the default").isEqualTo(Duration.ofHours(1));
            try (CoordinatorApp app = CoordinatorApp.start(config)) {
                Awaitility.await().atMost(CoordinatorTestBed.WAIT)
                        .until(() -> app.streams().state() == KafkaStreams.State.RUNNING);
                assertThat(app.durabilityWarnings().get(CoordinatorTestBed.WAIT.toSeconds(), TimeUnit.SECONDS))
                        .as("topics of the brokers' default replication factor, 1 here, are still warned of")
                        .anyMatch(warning -> warning.startsWith(String.join(", ", topics.all())
                                + ": replication factor is 1: "));
            }
        }
    }

    @Test
    void shouldRefuseACompactedJournal(KafkaCluster kafka) throws Exception {
        try (Admin admin = kafka.createAdmin()) {
            admin.createTopics(List.of(new NewTopic(topics.journal(), 2, (short) 1).configs(Map.of(
                    "cleanup.policy", "compact", "retention.ms", "-1", "retention.bytes", "-1"))))
                    .all().get(60, TimeUnit.SECONDS);
            TopicReadiness.awaitReady(admin, List.of(topics.journal()));

            Result refused = CoordinatorMainTest.runWith(Map.of(), flags(kafka, topics, 2));

            assertThat(refused.exit()).as(refused.err()).isEqualTo(CoordinatorMain.EXIT_REFUSED);
            assertThat(refused.err()).contains("\n  - " + topics.journal() + ": cleanup.policy is compact, so the "
                    + "brokers keep only the newest journal record of each job id and delete the rest of its "
                    + "history; the coordinator rebuilds its stores (after an upgrade that changes their layout, "
                    + "under a new application id, after lost changelogs) from the newest snapshot and the journal "
                    + "after it, so the jobs whose records are deleted before a snapshot holds them would be lost. "
                    + "Stop compacting it (what compaction removed already is "
                    + "gone): kafka-configs.sh --bootstrap-server " + kafka.bootstrapServers() + " --alter "
                    + "--entity-type topics --entity-name " + topics.journal() + " --add-config cleanup.policy=delete"
                    + SEE + "\n");
            assertThat(refused.err().lines().filter(line -> line.startsWith("  - "))).hasSize(1);
            assertNoMemberEverJoined(admin);
        }
    }

    @Test
    void shouldRefuseAnInputTopicWithAnotherPartitionCountThanTheJournal(KafkaCluster kafka) throws Exception {
        kafka.createTopics(3, topics.requests());

        Result refused = CoordinatorMainTest.runWith(Map.of(), flags(kafka, topics, 2));

        assertThat(refused.exit()).as(refused.err()).isEqualTo(CoordinatorMain.EXIT_REFUSED);
        assertThat(refused.err()).contains("\n  - " + topics.requests() + " has 3 partitions, " + topics.journal()
                + " 2: the coordinator reads partition p of " + topics.requests() + " and " + topics.acks() + " in the "
                + "stream task that rebuilds its stores from partition p of the journal, so a job's requests and acks "
                + "would reach a task that does not hold the job. A topic's partitions cannot be removed: once "
                + "nothing on " + topics.requests() + " is left unread, delete it (kafka-topics.sh --bootstrap-server "
                + kafka.bootstrapServers() + " --delete --topic " + topics.requests() + ") and start the coordinator, "
                + "which creates it with 2 partitions" + SEE + "\n");
        assertThat(refused.err().lines().filter(line -> line.startsWith("  - "))).hasSize(1);
        try (Admin admin = kafka.createAdmin()) {
            assertNoMemberEverJoined(admin);
        }
    }

    @Test
    void shouldRefuseAJournalOfAnotherPartitionCountBeforeCreatingAnyTopic(KafkaCluster kafka) throws Exception {
        kafka.createTopics(3, topics.journal());

        Result refused = CoordinatorMainTest.runWith(Map.of(), flags(kafka, topics, 2));

        assertThat(refused.exit()).as(refused.err()).isEqualTo(CoordinatorMain.EXIT_REFUSED);
        assertThat(refused.err()).contains("\n  - " + topics.journal() + " has 3 partitions, but the coordinator runs "
                + "with partitions=2: a job's history is in the journal partition its id maps to, so the journal's "
                + "count cannot change, and every Cairn topic must have it. Start the coordinator with "
                + "--partitions=3 (CAIRN_PARTITIONS, or partitions in the --config file)" + SEE + "\n");
        try (Admin admin = kafka.createAdmin()) {
            assertThat(admin.listTopics().names().get(60, TimeUnit.SECONDS))
                    .as("no topic created with a count it would refuse next").doesNotContain(topics.requests(),
                            topics.acks(), topics.control());
        }
    }

    @Test
    void shouldStopWithoutFoldingWhenARebuildFindsRecordsDeletedFromTheJournalsHead(KafkaCluster kafka)
            throws Exception {
        String job = CoordinatorTestBed.uniqueJobId("head");
        CairnTopics written;
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, dir.resolve("writer")).partitions(1)
                .signedWith(SigningKey.fromFile(masterKey)).start()) {
            cairn.register(Events.job(job, 300, 60_000, "source"));
            cairn.startTask(job, "source", 0, "source-1");
            cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(job));
            written = cairn.topics();
        }
        try (Admin admin = kafka.createAdmin()) {
            admin.deleteRecords(Map.of(new TopicPartition(written.journal(), 0), RecordsToDelete.beforeOffset(2)))
                    .all().get(60, TimeUnit.SECONDS);
        }
        Logger rebuildLogger = (Logger) LoggerFactory.getLogger(
                "dev.cairn.coordinator.streams.StoreRebuild");
        ListAppender<ILoggingEvent> rebuildLog = new ListAppender<>();
        rebuildLog.start();
        rebuildLogger.addAppender(rebuildLog);
        try {
            CompletableFuture<Result> run = CompletableFuture.supplyAsync(
                    () -> CoordinatorMainTest.runWith(Map.of(), flags(kafka, written, 1)));

            Result stopped = run.get(CoordinatorTestBed.WAIT.toSeconds(), TimeUnit.SECONDS);

            assertThat(stopped.exit()).as(stopped.err()).isEqualTo(CoordinatorMain.EXIT_REFUSED);
            assertThat(stopped.err()).startsWith("cairn-coordinator: Cannot rebuild the stores of partition 0 from "
                    + written.journal() + ": the partition's first offset is 2, so its records at offsets 0 to 1 were "
                    + "deleted (by retention, compaction or kafka-delete-records.sh) and no snapshot holds them, and a "
                    + "fold of the rest would silently lose the jobs whose history they held. Nothing was folded, and "
                    + "this instance stops");
            assertThat(rebuildLog.list).extracting(ILoggingEvent::getFormattedMessage)
                    .as("the rebuild began and folded nothing")
                    .anyMatch(line -> line.startsWith("Rebuilding the stores of partition 0 from " + written.journal()))
                    .noneMatch(line -> line.startsWith("Rebuilt the stores of partition"));
        } finally {
            rebuildLogger.detachAppender(rebuildLog);
        }
    }

    /** The coordinator's command as users run it: signed, with REST tokens, the default replication factor. */
    private String[] flags(KafkaCluster kafka, CairnTopics on, int partitions) {
        return new String[] {"--bootstrap-servers", kafka.bootstrapServers(), "--topic-prefix", on.prefix(),
            "--application-id", application, "--partitions", Integer.toString(partitions), "--state-dir",
            dir.resolve("state").toString(), "--sidecar-master-key-file", masterKey.toString(), "--http-tokens-file",
            tokens.toString(), "--http-port", "0"};
    }

    private ConfigResource journal() {
        return new ConfigResource(ConfigResource.Type.TOPIC, topics.journal());
    }

    /** Kafka Streams never started: its application's group was never joined. */
    private void assertNoMemberEverJoined(Admin admin) throws Exception {
        assertThat(admin.listGroups().all().get(60, TimeUnit.SECONDS)).extracting(GroupListing::groupId)
                .doesNotContain(application);
    }
}
