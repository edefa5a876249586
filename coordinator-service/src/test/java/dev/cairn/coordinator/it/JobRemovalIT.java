package dev.cairn.coordinator.it;

import static dev.cairn.coordinator.testbed.RestClient.json;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.cairn.client.audit.JournalReader;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.audit.CheckpointTimeline;
import dev.cairn.core.audit.JournalChecker;
import dev.cairn.core.audit.JournalEntry;
import dev.cairn.core.audit.Replay;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobRemoved;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.topics.CairnTopics;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * A job's removal on a real broker in the default secured mode (requests signed with the requests key, changes
 * through the REST API with a token): a job that checkpointed and was stopped with a savepoint is removed with
 * {@code DELETE /jobs/{jobId}} (refused while it still ran), its views answer 404 and the listing leaves it out, the
 * completed topic gives a sidecar nothing to restore; registered again under the same id it checkpoints with ids above
 * the removed job's; and the journal still tells the removed job's checkpoints, its removal, and breaks no invariant.
 */
@ExtendWith(KafkaClusterExtension.class)
class JobRemovalIT {

    private static final String SPEC = "{\"tasks\": [{\"taskId\": \"source\", \"parallelism\": 1}], \"config\": "
            + "{\"intervalMs\": 3600000, \"timeoutMs\": 60000, \"storageBaseLocation\": \"file:///cairn-it\"}}";

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    @Test
    void shouldRemoveAStoppedJobAndCheckpointAboveItsIdsWhenItsIdIsRegisteredAgain(KafkaCluster kafka) {
        String job = CoordinatorTestBed.uniqueJobId("removed");
        String attempt = register(job);
        long first = checkpoint(job, "c1", attempt);

        HttpResponse<String> whileRunning = cairn.rest().send("DELETE", "/jobs/" + job, "{\"requestId\":\"rm-1\"}");
        assertThat(whileRunning.statusCode()).as(whileRunning.body()).isEqualTo(202);
        JsonNode refused = cairn.rest().awaitJson("/jobs/" + job + "/savepoints/rm-1",
                v -> v.path("stage").asText().equals("FAILED"));
        assertThat(refused.get("failure_message").asText()).startsWith("job " + job + " is RUNNING");

        long stop = stop(job, attempt);
        HttpResponse<String> removal = cairn.rest().send("DELETE", "/jobs/" + job, "{\"requestId\":\"rm-2\"}");

        assertThat(removal.statusCode()).as(removal.body()).isEqualTo(202);
        assertThat(json(removal).get("request-id").asText()).isEqualTo("rm-2");
        String gone = cairn.rest().awaitBody("/jobs/" + job, r -> r.statusCode() == 404);
        assertThat(gone).contains("was removed at").contains("(request rm-2)");
        assertThat(json(cairn.rest().get("/jobs")).get("jobs")).extracting(j -> j.get("id").asText())
                .doesNotContain(job);
        assertThat(cairn.awaitJournal(JobRemoved.class, r -> r.getJobId().equals(job)).getNextCheckpointId())
                .isEqualTo(stop + 1);
        RetainedCheckpoints left = latestRetained(kafka, job);
        assertThat(left.getCheckpoints()).as("nothing for a sidecar to restore").isEmpty();
        assertThat(left.getChosenAfterId()).isEqualTo(stop);

        String attemptAgain = register(job);
        long again = checkpoint(job, "c2", attemptAgain);

        assertThat(again).as("above every id of the removed job").isEqualTo(stop + 1);
        assertThat(cairn.rest().awaitJson("/jobs/" + job, v -> v.path("latest_completed_id").asLong() == again)
                .get("state").asText()).isEqualTo("RUNNING");
        assertAuditShowsTheRemovedHistory(kafka, job, first, stop);
    }

    /** The journal as {@code cairn audit} reads it: the removed job's timelines, its removal, no violation. */
    private static void assertAuditShowsTheRemovedHistory(KafkaCluster kafka, String job, long first, long stop) {
        List<JournalEntry> entries = new ArrayList<>();
        new JournalReader(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers()))
                .read(cairn.topics().journal(), new JournalReader.Bounds(job, null, null), entries::add,
                        JournalReader.Progress.NONE, Duration.ofSeconds(60));
        CheckpointTimeline timeline = new CheckpointTimeline(job, first);
        JournalChecker checker = new JournalChecker(CoordinatorSettings.DEFAULTS);
        Replay asOfRemoval = new Replay(CoordinatorSettings.DEFAULTS, job);
        boolean removed = false;
        for (JournalEntry entry : entries) {
            timeline.accept(entry);
            checker.accept(entry);
            removed |= entry.event() instanceof JobRemoved;
            if (!removed) {
                asOfRemoval.accept(entry);
            }
        }

        assertThat(timeline.found()).isTrue();
        assertThat(timeline.timeline().outcome()).isEqualTo(CheckpointTimeline.Outcome.COMPLETED);
        assertThat(removed).isTrue();
        assertThat(asOfRemoval.state().job(job).orElseThrow().getLatestCompletedId()).as("the state before removal")
                .isEqualTo(first);
        assertThat(asOfRemoval.state().savepoints(job)).extracting(s -> s.getCheckpointId()).containsExactly(stop);
        assertThat(checker.finish()).isEmpty();
        assertThat(checker.state().removed(job)).isPresent();
    }

    /** Registers a job of one subtask through the REST API and starts the subtask; the attempt's id. */
    private static String register(String job) {
        HttpResponse<String> registered = cairn.rest().put("/jobs/" + job, SPEC);
        assertThat(registered.statusCode()).as(registered.body()).isEqualTo(202);
        cairn.rest().awaitBody("/jobs/" + job, r -> r.statusCode() == 200);
        String attempt = job + "-" + UUID.randomUUID();
        cairn.startTask(job, "source", 0, attempt);
        return attempt;
    }

    /** A checkpoint through the REST API, acknowledged by {@code attempt}; its id once it completed. */
    private static long checkpoint(String job, String requestId, String attempt) {
        HttpResponse<String> triggered = cairn.rest().post("/jobs/" + job + "/checkpoints",
                "{\"type\":\"CHECKPOINT\",\"triggerId\":\"" + requestId + "\"}");
        assertThat(triggered.statusCode()).as(triggered.body()).isEqualTo(202);
        return completed(job, requestId, attempt);
    }

    /** A stop-with-savepoint through the REST API, acknowledged: the job is FINISHED; the savepoint's id. */
    private static long stop(String job, String attempt) {
        HttpResponse<String> stopping = cairn.rest().post("/jobs/" + job + "/stop",
                "{\"targetDirectory\":\"file:///cairn-it/savepoints/" + job + "\",\"triggerId\":\"stop\"}");
        assertThat(stopping.statusCode()).as(stopping.body()).isEqualTo(202);
        long id = completed(job, "stop", attempt);
        cairn.rest().awaitJson("/jobs/" + job, v -> v.path("state").asText().equals("FINISHED"));
        return id;
    }

    private static long completed(String job, String requestId, String attempt) {
        CheckpointTriggered trigger = cairn.awaitControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && requestId.equals(t.getRequestId()));
        cairn.ack(job, trigger.getCheckpointId(), "source", 0, attempt);
        cairn.rest().awaitJson("/jobs/" + job + "/savepoints/" + requestId,
                v -> v.path("stage").asText().equals("COMPLETED"));
        return trigger.getCheckpointId();
    }

    /** The newest value under the job's key on the completed topic, as a starting sidecar reads it. */
    private static RetainedCheckpoints latestRetained(KafkaCluster kafka, String job) {
        Map<String, Object> config = new HashMap<>();
        config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers());
        config.put(ConsumerConfig.GROUP_ID_CONFIG, "completed-reader-" + UUID.randomUUID());
        config.put(ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed");
        config.put(ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest");
        CairnTopics topics = cairn.topics();
        List<ConsumerRecord<String, byte[]>> ofJob = new ArrayList<>();
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(config, new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(topics.completed()));
            Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> {
                    if (job.equals(r.key())) {
                        ofJob.add(r);
                    }
                });
                return !ofJob.isEmpty() && ofJob.get(ofJob.size() - 1).value() != null
                        && retained(ofJob.get(ofJob.size() - 1)).getCheckpoints().isEmpty();
            });
        }
        return retained(ofJob.get(ofJob.size() - 1));
    }

    private static RetainedCheckpoints retained(ConsumerRecord<String, byte[]> record) {
        return CairnSerdes.retained().deserialize(cairn.topics().completed(), record.value());
    }
}
