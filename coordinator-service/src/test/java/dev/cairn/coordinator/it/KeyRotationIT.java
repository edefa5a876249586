package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.SigningKey;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.coordinator.testbed.FaultChecks;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.CheckpointCompleted;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.JobSpec;
import dev.cairn.events.TaskStarted;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import dev.cairn.kafka.test.TopicTail;
import java.net.http.HttpResponse;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * A key rotation on a real broker, in the default signed mode: a coordinator given the new master key and the previous
 * one until the end of an overlap completes checkpoints acknowledged by sidecars that still sign with the previous
 * master key's job key beside sidecars that sign with the new one, and its REST API signs with the previous requests
 * key meanwhile; once the overlap ended, a record signed with a previous key is dead-lettered, naming the end.
 */
@ExtendWith(KafkaClusterExtension.class)
class KeyRotationIT {

    private static final SigningKey PREVIOUS = SigningKey.generate();
    private static final SigningKey CURRENT = SigningKey.generate();
    private static final Instant OVERLAP_END = Instant.now().plus(Duration.ofHours(1)).truncatedTo(ChronoUnit.SECONDS);

    @RegisterExtension
    static final CoordinatorTestBed rotating = CoordinatorTestBed.perTestClass().signedWith(CURRENT)
            .withPreviousMasterKey(PREVIOUS, OVERLAP_END).withRestApi().create();

    @Test
    void shouldCompleteACheckpointAckedWithThePreviousAndTheCurrentJobKeysDuringTheOverlap() {
        String job = CoordinatorTestBed.uniqueJobId("rotating");
        rotating.register(Events.job(job, 300, 30_000, "source", "sink"));
        rotating.sendAckSignedWith(PREVIOUS.jobKey(job), job, Events.taskStarted(job, "source", 0, "old-1").build());
        rotating.startTask(job, "sink", 0, "new-1");

        CheckpointTriggered triggered = rotating.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job));
        rotating.sendAckSignedWith(PREVIOUS.jobKey(job), job,
                Events.ack(job, triggered.getCheckpointId(), "source", 0, "old-1").build());
        rotating.ack(job, triggered.getCheckpointId(), "sink", 0, "new-1");

        CheckpointCompleted completed = rotating.awaitJournal(CheckpointCompleted.class,
                c -> c.getJobId().equals(job) && c.getCheckpointId() == triggered.getCheckpointId());
        assertThat(completed.getSubtaskCount()).isEqualTo(2);
        assertThat(rotating.journal(CheckpointAcknowledged.class, a -> a.getJobId().equals(job)
                && a.getCheckpointId() == triggered.getCheckpointId()))
                .extracting(CheckpointAcknowledged::getAttemptId).containsExactlyInAnyOrder("old-1", "new-1");
    }

    @Test
    void shouldSignWhatTheRestApiPublishesWithThePreviousRequestsKeyDuringTheOverlap() {
        String job = CoordinatorTestBed.uniqueJobId("rest");
        try (TopicTail<byte[]> requests = TopicTail.fromBeginning(rotating.bootstrapServers(),
                rotating.topics().requests(), new ByteArrayDeserializer(), value -> value)) {
            HttpResponse<String> registered = rotating.rest().put("/jobs/" + job, "{\"tasks\": [{\"taskId\": "
                    + "\"source\", \"parallelism\": 1}], \"config\": {\"intervalMs\": 3600000, \"timeoutMs\": 60000, "
                    + "\"storageBaseLocation\": \"file:///cairn-it\"}}");

            assertThat(registered.statusCode()).isEqualTo(202);
            ConsumerRecord<String, byte[]> published = requests.awaitNextRecord(r -> job.equals(r.key()),
                    CoordinatorTestBed.WAIT, "the job spec the REST API published");
            assertThat(RecordSignatures.keyId(published.headers())).isEqualTo(PREVIOUS.requestsKey().id());
            assertThat(rotating.awaitJournal(JobSpec.class, s -> s.getJobId().equals(job)).getJobId())
                    .as("the coordinator, holding both master keys, took it").isEqualTo(job);
        }
    }

    @Test
    void shouldDeadLetterARecordSignedWithThePreviousKeyOnceTheOverlapEnded(KafkaCluster kafka,
            @TempDir Path stateDir) {
        Instant ended = Instant.now().minus(Duration.ofMinutes(1)).truncatedTo(ChronoUnit.SECONDS);
        String job = CoordinatorTestBed.uniqueJobId("ended");
        try (CoordinatorTestBed cairn = CoordinatorTestBed.on(kafka, stateDir).signedWith(CURRENT)
                .withPreviousMasterKey(PREVIOUS, ended).start();
                FaultChecks checks = FaultChecks.on(cairn)) {
            cairn.register(Events.job(job, 300, 30_000, "source"));
            cairn.sendAckSignedWith(PREVIOUS.jobKey(job), job, Events.taskStarted(job, "source", 0, "old-1").build());
            cairn.startTask(job, "source", 0, "new-1");

            ConsumerRecord<String, byte[]> dead = Awaitility.await().atMost(CoordinatorTestBed.WAIT)
                    .until(() -> checks.deadLetters().stream().filter(r -> job.equals(r.key())).findFirst()
                            .orElse(null), r -> r != null);
            assertThat(FaultChecks.header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("BAD_SIGNATURE");
            assertThat(FaultChecks.header(dead, DeadLetterQueueHandler.MESSAGE))
                    .contains("previous key " + PREVIOUS.jobKey(job).id(), "only until " + ended,
                            "current key " + CURRENT.jobKey(job).id());
            cairn.awaitJournal(TaskStarted.class, t -> t.getJobId().equals(job) && t.getAttemptId().equals("new-1"));
            assertThat(cairn.journal(TaskStarted.class, t -> t.getJobId().equals(job)))
                    .extracting(TaskStarted::getAttemptId).containsExactly("new-1");
        }
    }
}
