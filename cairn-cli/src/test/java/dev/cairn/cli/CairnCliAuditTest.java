package dev.cairn.cli;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.Json;
import dev.cairn.client.audit.AuditJournalsAccess;
import dev.cairn.core.audit.JournalEntry;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code cairn audit}'s flags, outputs and exit codes over a journal in memory (the decider's, two jobs). */
class CairnCliAuditTest {

    @TempDir
    Path dir;

    private final List<JournalEntry> journal = AuditJournalsAccess.twoJobs();

    @Test
    void shouldPrintATimelineAsTextJsonOrCsvWhenAskedForThatFormat() throws Exception {
        AuditRun text = run("audit", "timeline", "--job", "orders", "--checkpoint", "2");
        AuditRun json = run("audit", "timeline", "--job", "orders", "--checkpoint", "1", "--format", "json");
        AuditRun csv = run("audit", "--format", "CSV", "timeline", "--job", "orders", "--checkpoint", "1");

        assertThat(text.exit).as(text.err).isZero();
        assertThat(text.out).startsWith("Checkpoint 2 of job orders: ABORTED (CHECKPOINT)")
                .contains("aborted at 1970-01-01T00:00:01.120Z after 20 ms: CHECKPOINT_DECLINED")
                .contains("DECLINE  source/1  attempt source-1-a1  CHECKPOINT_DECLINED: disk full");
        JsonNode timeline = Json.MAPPER.readTree(json.out);
        assertThat(timeline.get("outcome").asText()).isEqualTo("COMPLETED");
        assertThat(timeline.get("acks_expected").asInt()).isEqualTo(3);
        assertThat(timeline.get("entries").get(0).get("kind").asText()).isEqualTo("TRIGGERED");
        List<String> lines = csv.out.lines().toList();
        assertThat(lines.get(0)).isEqualTo("partition,offset,time,event,task,subtask,attempt,size_bytes,detail");
        assertThat(lines)
                .anyMatch(line -> line.matches("0,\\d+,1970-01-01T00:00:01.020Z,ACK,source,0,source-0-a1,100,"));
        assertThat(csv.topic).isEqualTo("cairn.journal");
    }

    @Test
    void shouldExitWithOneWhenTheJobOrTheCheckpointIsNotInTheJournal() {
        AuditRun unknownJob = run("audit", "timeline", "--job", "nobody", "--checkpoint", "1");
        AuditRun unknownCheckpoint = run("audit", "timeline", "--job", "orders", "--checkpoint", "42");
        AuditRun unknownState = run("audit", "state", "--job", "nobody");

        assertThat(unknownJob.exit).isEqualTo(1);
        assertThat(unknownJob.err).contains("job 'nobody' has no record in the journal");
        assertThat(unknownCheckpoint.exit).isEqualTo(1);
        assertThat(unknownCheckpoint.err).contains("checkpoint 42 of job 'orders' is not in the journal");
        assertThat(unknownState.exit).isEqualTo(1);
        assertThat(unknownState.err).contains("job 'nobody' has no record in the journal");
    }

    @Test
    void shouldExitWithTwoWhenAFlagIsMalformed() {
        AuditRun format = run("audit", "check", "--format", "xml");
        AuditRun asOf = run("audit", "state", "--job", "orders", "--as-of", "yesterday");
        AuditRun negative = run("audit", "timeline", "--job", "orders", "--checkpoint", "-3");
        AuditRun missing = run("audit", "timeline", "--checkpoint", "1");
        AuditRun url = run("audit", "verify", "--rest-url", "ftp:/nowhere");
        AuditRun noSubcommand = run("audit");

        assertThat(format.exit).isEqualTo(2);
        assertThat(format.err).contains("--format").contains("xml").contains("TEXT, JSON, CSV");
        assertThat(asOf.exit).isEqualTo(2);
        assertThat(asOf.err).contains("--as-of: 'yesterday' is neither an offset").contains("2024-06-01T12:00:00Z");
        assertThat(negative.exit).isEqualTo(2);
        assertThat(negative.err).contains("--checkpoint must be 0 or more, was -3");
        assertThat(missing.exit).isEqualTo(2);
        assertThat(missing.err).contains("Missing required option: '--job=JOB'");
        assertThat(url.exit).isEqualTo(2);
        assertThat(url.err).contains("--rest-url").contains("'ftp:/nowhere' is not a URL of the REST API");
        assertThat(noSubcommand.exit).isEqualTo(2);
        assertThat(noSubcommand.err).contains("timeline, check, state or verify");
    }

    @Test
    void shouldExitWithZeroAndPrintNoViolationWhenTheJournalIsCorrect() {
        AuditRun check = run("audit", "check");

        assertThat(check.exit).as(check.err).isZero();
        assertThat(check.out).isEqualTo("Checked " + journal.size() + " records of cairn.journal (1 partitions, "
                + "2 jobs): no violation." + System.lineSeparator() + "History replayed: partition 0 offsets 0 to "
                + (journal.size() - 1) + "." + System.lineSeparator());
        assertThat(check.err).doesNotContain("warning");
    }

    @Test
    void shouldSayWhereTheHistoryStartsWhenTheJournalsHeadWasDeleted() throws Exception {
        int deleted = 5;
        List<JournalEntry> trimmed = journal.subList(deleted, journal.size());

        AuditRun text = new AuditRun().withJournal(trimmed).run("audit", "check");
        AuditRun json = new AuditRun().withJournal(trimmed).run("audit", "check", "--format", "json");
        AuditRun state = new AuditRun().withJournal(trimmed).run("audit", "state", "--job", "orders");

        String range = "partition 0 offsets " + deleted + " to " + (journal.size() - 1) + " (the " + deleted
                + " records before were deleted)";
        assertThat(text.out).contains("History replayed: " + range + ".");
        assertThat(text.err).contains("warning: cairn.journal " + range + ": Kafka no longer holds the history "
                + "before offset " + deleted);
        JsonNode history = Json.MAPPER.readTree(json.out).get("history").get(0);
        assertThat(history.get("first_offset").asLong()).isEqualTo(deleted);
        assertThat(history.get("end_offset").asLong()).isEqualTo(journal.size());
        assertThat(state.err).contains("so the replay starts there");
    }

    @Test
    void shouldExitWithOneAndPrintEveryViolationWithItsOffsetWhenTheJournalBreaksARule() throws Exception {
        List<JournalEntry> broken = new ArrayList<>(journal);
        broken.add(JournalEntry.undecodable(0, broken.size(), 0, "orders", "the JournalEnvelope ends early (3 bytes)"));
        AuditRun text = new AuditRun().withJournal(broken).run("audit", "check");
        AuditRun json = new AuditRun().withJournal(broken).run("audit", "check", "--format", "json");
        AuditRun csv = new AuditRun().withJournal(broken).run("audit", "check", "--format", "csv");

        assertThat(text.exit).isEqualTo(1);
        assertThat(text.out).contains("0/" + journal.size() + "  UNDECODABLE  job orders: record does not decode: "
                + "the JournalEnvelope ends early (3 bytes)").contains("1 violation.");
        JsonNode report = Json.MAPPER.readTree(json.out);
        assertThat(report.get("violations").get(0).get("offset").asLong()).isEqualTo(journal.size());
        assertThat(report.get("records").asLong()).isEqualTo(journal.size() + 1);
        assertThat(csv.out.lines()).containsExactly("partition,offset,job,rule,message", "0," + journal.size()
                + ",orders,UNDECODABLE,record does not decode: the JournalEnvelope ends early (3 bytes)");
    }

    @Test
    void shouldShowTheStateAsItWasWhenAnOffsetOrATimeIsGiven() throws Exception {
        long thirdTrigger = journal.stream().filter(e -> e.event() instanceof dev.cairn.events.CheckpointTriggered t
                && t.getJobId().equals("orders") && t.getCheckpointId() == 3).findFirst().orElseThrow().offset();
        AuditRun atOffset = run("audit", "state", "--job", "orders", "--as-of", String.valueOf(thirdTrigger));
        AuditRun atTime = run("audit", "state", "--job", "orders", "--as-of",
                java.time.Instant.ofEpochMilli(5_000 + thirdTrigger).toString(), "--format", "json");
        AuditRun csv = run("audit", "state", "--job", "orders", "--format", "csv");

        assertThat(atOffset.exit).as(atOffset.err).isZero();
        assertThat(atOffset.out).startsWith("Job orders as of offset " + thirdTrigger + ": ")
                .contains("status RUNNING, next checkpoint id 4, latest completed 1")
                .contains("pending: 3 (0/3 acks)")
                .contains("history (newest first): 2 FAILED (CHECKPOINT_DECLINED), 1 COMPLETED");
        JsonNode state = Json.MAPPER.readTree(atTime.out);
        assertThat(state.get("last_offset").asLong()).isEqualTo(thirdTrigger);
        assertThat(state.get("checkpoints").get("pending").get(0).get("id").asLong()).isEqualTo(3);
        assertThat(csv.out.lines()).contains("field,value", "checkpoints.counts.completed,2", "job.state,RUNNING");
    }

    @Test
    void shouldSkipARecordWithAWarningWhenItDoesNotDecode() {
        List<JournalEntry> broken = new ArrayList<>(journal);
        broken.add(3, JournalEntry.undecodable(0, 999, 0, "orders", "CORRUPT"));

        AuditRun state = new AuditRun().withJournal(broken).run("audit", "state", "--job", "orders");

        assertThat(state.exit).as(state.err).isZero();
        assertThat(state.err).contains("warning: skipped record 0/999 of cairn.journal: CORRUPT");
    }

    @Test
    void shouldExitWithOneWhenTheRestApiIsUnreachable() {
        AuditRun verify = run("audit", "verify", "--rest-url", "http://nowhere:1");

        assertThat(verify.exit).isEqualTo(1);
        assertThat(verify.err).contains("cairn audit verify: cannot reach the REST API at http://nowhere:1");
    }

    @Test
    void shouldDrawAProgressBarOnStderrWhenAsked() {
        AuditRun check = run("audit", "check", "--progress");

        assertThat(check.exit).isZero();
        assertThat(check.err).contains("reading cairn.journal [").contains("100% " + journal.size() + "/"
                + journal.size());
    }

    @Test
    void shouldReadTheBrokersAndSecurityFromTheKafkaConfigWhenAuditing() throws Exception {
        Path config = Files.writeString(dir.resolve("client.properties"),
                "bootstrap.servers=cloud:9092\nsecurity.protocol=SSL\n");

        AuditRun run = run("audit", "check", "--kafka-config", config.toString(), "--topic-prefix", "prod.");
        AuditRun flag = run("--bootstrap-servers", "k1:9092", "audit", "check");
        AuditRun badFile = run("audit", "check", "--kafka-config", dir.resolve("missing").toString());

        assertThat(run.consumerConfig).containsEntry("bootstrap.servers", "cloud:9092")
                .containsEntry("security.protocol", "SSL");
        assertThat(run.topic).isEqualTo("prod.journal");
        assertThat(flag.consumerConfig).containsEntry("bootstrap.servers", "k1:9092");
        assertThat(badFile.exit).isEqualTo(2);
        assertThat(badFile.err).contains("kafka.config (flag --kafka-config): cannot read");
    }

    private AuditRun run(String... args) {
        return new AuditRun().withJournal(journal).run(args);
    }
}
