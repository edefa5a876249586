package dev.cairn.coordinator.app;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.coordinator.app.DurabilityRules.TopicSettings;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Which settings of Cairn's topics lose acknowledged writes, and the one warning each problem gets. */
class DurabilityRulesTest {

    @Test
    void shouldWarnOnceNamingEveryTopicWhenMinInsyncReplicasIsOneWithThreeReplicas() {
        List<TopicSettings> topics = List.of(
                new TopicSettings("cairn.journal", 3, 1, false),
                new TopicSettings("cairn.control", 3, 1, false),
                new TopicSettings("cairn.acks", 3, 2, false));

        List<String> warnings = DurabilityRules.warnings(topics, "coordinator");

        assertThat(warnings).containsExactly("cairn.journal, cairn.control: min.insync.replicas is 1 with 3 replicas: "
                + "a write acknowledged by one broker is lost if that broker dies before the others copy it; set "
                + "min.insync.replicas=2 (docs/operations.md, What Kafka can lose)");
    }

    @Test
    void shouldWarnOfUncleanLeaderElectionWhenATopicAllowsIt() {
        List<TopicSettings> topics = List.of(
                new TopicSettings("cairn.requests", 3, 2, false),
                new TopicSettings("cairn.completed", 3, 2, true));

        List<String> warnings = DurabilityRules.warnings(topics, "coordinator");

        assertThat(warnings).containsExactly("cairn.completed: unclean.leader.election.enable is true: a replica that "
                + "missed acknowledged writes can become leader, and those records vanish and their offsets are reused "
                + "by other records; set unclean.leader.election.enable=false (docs/operations.md, What Kafka can "
                + "lose)");
    }

    @Test
    void shouldWarnOfTheSingleReplicaOnlyWhenTopicsHaveOneReplica() {
        List<TopicSettings> topics = List.of(
                new TopicSettings("cairn.requests", 1, 1, false),
                new TopicSettings("cairn.journal", 1, 1, false));

        List<String> warnings = DurabilityRules.warnings(topics, "coordinator");

        assertThat(warnings).as("one warning, not a second one of min.insync.replicas 1").containsExactly(
                "cairn.requests, cairn.journal: replication factor is 1: every record is lost with that broker's "
                + "disk, and while the broker restarts Kafka can leave the coordinator's transaction open (its jobs "
                + "stop) or take back what it committed; use 3 replicas on three or more brokers "
                + "(when the coordinator creates the topics: default.replication.factor=3 on the brokers, or "
                + "--replication-factor=3) (docs/operations.md, What Kafka can lose)");
    }

    @Test
    void shouldNotWarnWhenThreeReplicasMinInsyncTwoAndNoUncleanElection() {
        List<TopicSettings> topics = List.of(
                new TopicSettings("cairn.requests", 3, 2, false),
                new TopicSettings("cairn.journal", 3, 2, false),
                new TopicSettings("coordinator-cairn-jobs-changelog", 3, 2, false));

        List<String> warnings = DurabilityRules.warnings(topics, "coordinator");

        assertThat(warnings).isEmpty();
    }

    @Test
    void shouldCountTheApplicationsChangelogTopicsWhenSeveralHaveAProblem() {
        List<TopicSettings> topics = List.of(
                new TopicSettings("cairn.journal", 3, 1, false),
                new TopicSettings("coordinator-cairn-jobs-changelog", 3, 1, false),
                new TopicSettings("coordinator-cairn-timers-changelog", 3, 1, false),
                new TopicSettings("other-cairn-jobs-changelog", 3, 1, false),
                new TopicSettings("coordinator-cairn-acks-changelog", 3, 2, false));

        List<String> warnings = DurabilityRules.warnings(topics, "coordinator");

        assertThat(warnings).singleElement().asString().startsWith("cairn.journal, other-cairn-jobs-changelog and 2 "
                + "changelog topics (coordinator-*-changelog): min.insync.replicas is 1 with 3 replicas:");
    }

    @Test
    void shouldGiveEachProblemItsOwnWarningWhenTopicsHaveSeveral() {
        List<TopicSettings> topics = List.of(
                new TopicSettings("cairn.journal", 2, 1, true),
                new TopicSettings("cairn.control", 3, 1, false),
                new TopicSettings("cairn.acks", 3, 1, true));

        List<String> warnings = DurabilityRules.warnings(topics, "coordinator");

        assertThat(warnings).hasSize(3);
        assertThat(warnings.get(0)).startsWith("cairn.journal: min.insync.replicas is 1 with 2 replicas:");
        assertThat(warnings.get(1)).startsWith("cairn.control, cairn.acks: min.insync.replicas is 1 with 3 replicas:");
        assertThat(warnings.get(2)).startsWith("cairn.journal, cairn.acks: unclean.leader.election.enable is true:");
    }
}
