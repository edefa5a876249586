package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.read.ListAppender;
import dev.cairn.coordinator.metrics.Scrapes;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.Collection;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.regex.Pattern;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AlterConfigOp;
import org.apache.kafka.clients.admin.ConfigEntry;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * The start-up check of what Kafka keeps of Cairn's topics, against the run's single in-JVM broker (every topic on it
 * has one replica): a coordinator starts and runs, warns once of the single replica naming every topic, warns of
 * unclean leader election once two topics allow it, and counts its warnings in {@code cairn_kafka_durability_warnings};
 * topics it cannot describe get one warning that says so, and the check does not throw.
 */
@ExtendWith(KafkaClusterExtension.class)
class KafkaDurabilityIT {

    private static final Duration WAIT = Duration.ofSeconds(60);

    private final Logger logger = (Logger) LoggerFactory.getLogger(KafkaDurability.class);
    private final ListAppender<ILoggingEvent> log = new ListAppender<>();

    @BeforeEach
    void captureTheLog() {
        log.start();
        logger.addAppender(log);
    }

    @AfterEach
    void releaseTheLog() {
        logger.detachAppender(log);
    }

    @Test
    void shouldWarnOfOneReplicaAndThenOfUncleanElectionWhenTwoTopicsAllowItAfterARestart(KafkaCluster kafka,
            @TempDir Path stateDir) throws Exception {
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, stateDir).start();
                Admin admin = kafka.createAdmin()) {
            CairnTopics topics = cairn.topics();
            List<String> first = cairn.coordinator().durabilityWarnings().get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertThat(first).containsExactly(String.join(", ", topics.all()) + ": replication factor is 1: every "
                    + "record is lost with that broker's disk, and while the broker restarts Kafka can leave the "
                    + "coordinator's transaction open (its jobs stop) or take back what it committed; use 3 replicas "
                    + "on three or more brokers (when the coordinator creates the topics: default.replication.factor=3 "
                    + "on the brokers, or --replication-factor=3) (docs/operations.md, What Kafka can lose)");
            assertThat(warningsLogged()).isEqualTo(first);
            assertThat(durabilityGauge(cairn)).isEqualTo(1.0);

            allowUncleanElection(admin, topics.journal(), topics.control());
            log.list.clear();
            cairn.restart();
            List<String> second = cairn.coordinator().durabilityWarnings().get(WAIT.toSeconds(), TimeUnit.SECONDS);

            assertThat(second).hasSize(2);
            assertThat(second.get(0)).as("the changelogs the first start created are checked too")
                    .matches(Pattern.quote(String.join(", ", topics.all()) + " and ") + "\\d+"
                            + Pattern.quote(" changelog topics (" + cairn.coordinator().config().applicationId()
                            + "-*-changelog): replication factor is 1: ") + ".*");
            assertThat(second.get(1)).isEqualTo(topics.journal() + ", " + topics.control()
                    + ": unclean.leader.election.enable is true: a replica that missed acknowledged writes can become "
                    + "leader, and those records vanish and their offsets are reused by other records; set "
                    + "unclean.leader.election.enable=false (docs/operations.md, What Kafka can lose)");
            assertThat(warningsLogged()).isEqualTo(second);
            assertThat(durabilityGauge(cairn)).isEqualTo(2.0);
        }
    }

    @Test
    void shouldWarnOnceThatItCouldNotCheckWhenTopicsCannotBeDescribed(KafkaCluster kafka) {
        String missing = "durability-missing-" + UUID.randomUUID();
        String present = "durability-present-" + UUID.randomUUID();
        kafka.createTopics(1, present);

        try (Admin admin = kafka.createAdmin()) {
            List<String> warnings = KafkaDurability.check(admin, List.of(present, missing), "coordinator", WAIT);

            assertThat(warnings).hasSize(2);
            assertThat(warnings.get(0)).startsWith(present + ": replication factor is 1: ");
            assertThat(warnings.get(1)).startsWith("Could not check whether Kafka keeps what Cairn writes to " + missing
                    + " (their replication factor, min.insync.replicas and unclean.leader.election.enable): "
                    + "org.apache.kafka.common.errors.UnknownTopicOrPartitionException")
                    .endsWith("; check them by hand (docs/operations.md, What Kafka can lose)");
            assertThat(warningsLogged()).isEqualTo(warnings);
        }
    }

    private static void allowUncleanElection(Admin admin, String... topics) throws Exception {
        Map<ConfigResource, Collection<AlterConfigOp>> changes = new LinkedHashMap<>();
        for (String topic : topics) {
            changes.put(new ConfigResource(ConfigResource.Type.TOPIC, topic), List.of(new AlterConfigOp(
                    new ConfigEntry(TopicConfig.UNCLEAN_LEADER_ELECTION_ENABLE_CONFIG, "true"),
                    AlterConfigOp.OpType.SET)));
        }
        admin.incrementalAlterConfigs(changes).all().get(WAIT.toSeconds(), TimeUnit.SECONDS);
    }

    /** The WARN lines of the check, in the order logged. */
    private List<String> warningsLogged() {
        return log.list.stream().filter(event -> event.getLevel() == Level.WARN)
                .map(ILoggingEvent::getFormattedMessage).toList();
    }

    private static double durabilityGauge(CoordinatorTestBed cairn) {
        String scrape = new String(cairn.coordinator().metrics().scrape(null).body(), StandardCharsets.UTF_8);
        return Scrapes.value(scrape, "cairn_kafka_durability_warnings");
    }
}
