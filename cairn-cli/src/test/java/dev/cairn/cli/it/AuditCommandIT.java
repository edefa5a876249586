package dev.cairn.cli.it;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.cli.CairnCli;
import dev.cairn.client.Json;
import dev.cairn.client.audit.AuditJournalsAccess;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAborted;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobStatus;
import dev.cairn.events.PeriodicTriggerStopped;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.stream.Stream;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.admin.RecordsToDelete;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * {@code cairn audit} against a real coordinator's journal on a real broker: one job completes a checkpoint and
 * aborts the next on a decline, then is suspended (a quiet moment); the audit tells both timelines, finds no
 * violation, shows the state as of an offset and a time, and finds the replay equal to the live REST API. A
 * journal written with every frozen schema version reads the same way.
 */
@ExtendWith(KafkaClusterExtension.class)
class AuditCommandIT {

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();
    private static final String JOB = "audit-" + UUID.randomUUID().toString().substring(0, 8);
    private static CheckpointTriggered first;
    private static CheckpointTriggered second;

    /** One CLI run. */
    record Run(int exit, String out, String err) {}

    @BeforeAll
    static void checkpointThenSuspend(KafkaCluster kafka) {
        cairn.register(Events.job(JOB, 300, 60_000, "source"));
        cairn.startTask(JOB, "source", 0, "source-a1");
        first = cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(JOB));
        cairn.ack(JOB, first.getCheckpointId(), "source", 0, "source-a1");
        cairn.awaitNextControl(CheckpointCompleted.class, c -> c.getJobId().equals(JOB)
                && c.getCheckpointId() == first.getCheckpointId());
        second = cairn.awaitNextControl(CheckpointTriggered.class, t -> t.getJobId().equals(JOB));
        cairn.decline(JOB, second.getCheckpointId(), "source", 0, "source-a1");
        cairn.awaitNextControl(CheckpointAborted.class, a -> a.getJobId().equals(JOB)
                && a.getCheckpointId() == second.getCheckpointId());
        cairn.changeStatus(JOB, JobStatus.SUSPENDED);
        cairn.awaitNextJournal(PeriodicTriggerStopped.class, s -> s.getJobId().equals(JOB));
        org.awaitility.Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> {
            var job = cairn.liveJob(JOB);
            return job != null && job.getStatus() == JobStatus.SUSPENDED && job.getPending().isEmpty();
        });
    }

    @Test
    void shouldTellTheTimelinesOfACompletedAndAnAbortedCheckpoint() throws Exception {
        Run completed = audit("timeline", "--job", JOB, "--checkpoint", String.valueOf(first.getCheckpointId()),
                "--format", "json");
        Run aborted = audit("timeline", "--job", JOB, "--checkpoint", String.valueOf(second.getCheckpointId()));

        assertThat(completed.exit).as(completed.err).isZero();
        JsonNode timeline = Json.MAPPER.readTree(completed.out);
        assertThat(timeline.get("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(timeline.get("triggered_at_ms").asLong()).isEqualTo(first.getTimestampMs());
        assertThat(timeline.get("entries")).anySatisfy(e -> {
            assertThat(e.get("kind").asText()).isEqualTo("ACK");
            assertThat(e.get("attempt").asText()).isEqualTo("source-a1");
            assertThat(e.get("size_bytes").asLong()).isEqualTo(1_000);
        });
        assertThat(aborted.exit).as(aborted.err).isZero();
        assertThat(aborted.out).contains("ABORTED").contains("DECLINE  source/0  attempt source-a1")
                .contains("CHECKPOINT_DECLINED");
    }

    @Test
    void shouldFindNoViolationInTheCoordinatorsJournal() {
        Run check = audit("check");

        assertThat(check.exit).as(check.out + check.err).isZero();
        assertThat(check.out).contains("no violation.");
    }

    @Test
    void shouldShowTheStateAsOfTheFirstCompletionAndAsOfNow() throws Exception {
        Run timeline = audit("timeline", "--job", JOB, "--checkpoint", String.valueOf(first.getCheckpointId()),
                "--format", "json");
        long completedAt = -1;
        for (JsonNode entry : Json.MAPPER.readTree(timeline.out).get("entries")) {
            if (entry.get("kind").asText().equals("COMPLETED")) {
                completedAt = entry.get("offset").asLong();
            }
        }

        Run then = audit("state", "--job", JOB, "--as-of", String.valueOf(completedAt), "--format", "json");
        Run now = audit("state", "--job", JOB, "--as-of", Instant.now().plusSeconds(60).toString());
        Run before = audit("state", "--job", JOB, "--as-of", "2001-01-01T00:00:00Z");
        Run past = audit("state", "--job", JOB, "--as-of", "99999999");

        assertThat(then.exit).as(then.err).isZero();
        assertThat(completedAt).isNotNegative();
        JsonNode state = Json.MAPPER.readTree(then.out);
        assertThat(state.get("last_offset").asLong()).isEqualTo(completedAt);
        assertThat(state.get("checkpoints").get("counts").get("completed").asLong()).isEqualTo(1);
        assertThat(state.get("checkpoints").get("history")).hasSize(1);
        assertThat(state.get("checkpoints").get("pending")).isEmpty();
        assertThat(state.get("job").get("latest_completed_id").asLong()).isEqualTo(first.getCheckpointId());
        assertThat(now.exit).as(now.err).isZero();
        assertThat(now.out).contains("status SUSPENDED")
                .contains(second.getCheckpointId() + " FAILED (CHECKPOINT_DECLINED)");
        assertThat(before.exit).isEqualTo(1);
        assertThat(before.err).contains("job '" + JOB + "' has no record in the journal as of 2001-01-01T00:00:00Z");
        assertThat(past.exit).isEqualTo(1);
        assertThat(past.err).contains("offset 99999999 is not in partition");
    }

    @Test
    void shouldFindTheReplayEqualToTheLiveRestApi() {
        Run verify = audit("verify", "--rest-url", cairn.restUri().toString(), "--token",
                CoordinatorTestBed.REST_TOKEN);
        Run unreachable = audit("verify", "--rest-url", "http://127.0.0.1:1");

        assertThat(verify.exit).as(verify.out + verify.err).isZero();
        assertThat(verify.out).contains("no difference.");
        assertThat(unreachable.exit).isEqualTo(1);
        assertThat(unreachable.err).contains("cannot reach the REST API at http://127.0.0.1:1");
    }

    @Test
    void shouldReadAJournalWrittenWithEveryFrozenSchemaVersion(KafkaCluster kafka) throws Exception {
        String prefix = "old-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        try (Admin admin = kafka.createAdmin()) {
            admin.createTopics(List.of(new NewTopic(prefix + "journal", 2, (short) 1))).all().get();
        }
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                new ByteArraySerializer())) {
            for (byte[] value : AuditJournalsAccess.oldSchemaValues()) {
                producer.send(new ProducerRecord<>(prefix + "journal", AuditJournalsAccess.OLD_SCHEMA_JOB, value))
                        .get();
            }
        }

        Run check = run("audit", "check", "--bootstrap-servers", kafka.bootstrapServers(), "--topic-prefix", prefix);
        Run timeline = run("audit", "timeline", "--job", AuditJournalsAccess.OLD_SCHEMA_JOB, "--checkpoint", "1",
                "--bootstrap-servers", kafka.bootstrapServers(), "--topic-prefix", prefix);
        Run state = run("audit", "state", "--job", AuditJournalsAccess.OLD_SCHEMA_JOB,
                "--bootstrap-servers", kafka.bootstrapServers(), "--topic-prefix", prefix);

        assertThat(check.exit).as(check.out + check.err).isZero();
        assertThat(check.out).contains("Checked " + AuditJournalsAccess.oldSchemaValues().size() + " records");
        assertThat(timeline.out).contains("COMPLETED").contains("3 acks expected, 3 accepted");
        assertThat(state.out)
                .contains("history (newest first): 4 COMPLETED, 3 COMPLETED, 2 FAILED (CHECKPOINT_DECLINED), "
                        + "1 COMPLETED");
    }

    @Test
    void shouldSayWhereTheHistoryStartsWhenKafkaDeletedTheJournalsHead(KafkaCluster kafka) throws Exception {
        String prefix = "trimmed-" + UUID.randomUUID().toString().substring(0, 8) + ".";
        TopicPartition journal = new TopicPartition(prefix + "journal", 0);
        int written = AuditJournalsAccess.oldSchemaValues().size();
        try (Admin admin = kafka.createAdmin()) {
            admin.createTopics(List.of(new NewTopic(journal.topic(), 1, (short) 1))).all().get();
            try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(Map.of(
                    ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()), new StringSerializer(),
                    new ByteArraySerializer())) {
                for (byte[] value : AuditJournalsAccess.oldSchemaValues()) {
                    producer.send(new ProducerRecord<>(journal.topic(), AuditJournalsAccess.OLD_SCHEMA_JOB, value))
                            .get();
                }
            }
            admin.deleteRecords(Map.of(journal, RecordsToDelete.beforeOffset(2))).all().get();
        }

        Run check = run("audit", "check", "--bootstrap-servers", kafka.bootstrapServers(), "--topic-prefix", prefix);

        String range = "partition 0 offsets 2 to " + (written - 1) + " (the 2 records before were deleted)";
        assertThat(check.out).contains("Checked " + (written - 2) + " records").contains("History replayed: " + range);
        assertThat(check.err).contains("warning: " + journal.topic() + " " + range
                + ": Kafka no longer holds the history before offset 2");
    }

    /** {@code cairn audit ...} against the harness' broker and topics. */
    private static Run audit(String... args) {
        return run(Stream.concat(Stream.concat(Stream.of("audit"), Stream.of(args)), Stream.of("--bootstrap-servers",
                cairn.bootstrapServers(), "--topic-prefix", cairn.topics().prefix(), "--timeout-ms", "60000"))
                .toArray(String[]::new));
    }

    private static Run run(String... args) {
        StringWriter out = new StringWriter();
        StringWriter err = new StringWriter();
        var commandLine = CairnCli.commandLine();
        commandLine.setOut(new PrintWriter(out, true));
        commandLine.setErr(new PrintWriter(err, true));
        int exit = commandLine.execute(args);
        return new Run(exit, out.toString(), err.toString());
    }
}
