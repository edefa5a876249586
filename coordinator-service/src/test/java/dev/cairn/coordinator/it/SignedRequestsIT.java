package dev.cairn.coordinator.it;

import static org.assertj.core.api.Assertions.assertThat;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.coordinator.streams.DeadLetterQueueHandler;
import dev.cairn.coordinator.testbed.CoordinatorTestBed;
import dev.cairn.core.testing.Events;
import dev.cairn.events.CheckpointTriggered;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.test.KafkaCluster;
import dev.cairn.kafka.test.KafkaClusterExtension;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.StringDeserializer;
import org.awaitility.Awaitility;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;

/**
 * The default secured configuration on a real broker: a request written straight to {@code cairn.requests} without
 * the requests key's signature, or altered after signing, is dead-lettered with its reason and does nothing, while
 * the REST API's requests, signed by the coordinator itself, keep working.
 */
@ExtendWith(KafkaClusterExtension.class)
class SignedRequestsIT {

    private static final String FORGED_TARGET = "file:///attacker/forged-savepoint";

    @RegisterExtension
    static final CoordinatorTestBed cairn = CoordinatorTestBed.perTestClass().withRestApi().create();

    @Test
    void shouldDeadLetterAnUnsignedSavepointRequestAndTakeNoSavepointWhileTheRestApiKeepsWorking(KafkaCluster kafka)
            throws Exception {
        String job = startJob("forged");
        String forgedId = "forged-" + UUID.randomUUID();

        cairn.sendRawRequest(job, bytes(savepoint(job, forgedId)), new RecordHeaders());
        String restId = "rest-" + UUID.randomUUID();
        HttpResponse<String> rest = cairn.rest().post("/jobs/" + job + "/savepoints",
                "{\"targetDirectory\": \"file:///savepoints/" + job + "\", \"triggerId\": \"" + restId + "\"}");

        assertThat(rest.statusCode()).isEqualTo(202);
        CheckpointTriggered triggered = cairn.awaitNextControl(CheckpointTriggered.class,
                t -> t.getJobId().equals(job) && t.getType() == CheckpointType.SAVEPOINT);
        assertThat(triggered.getRequestId()).as("the first savepoint is the REST API's: the forged request, written "
                + "before it to the same partition, was dropped").isEqualTo(restId);
        assertThat(triggered.getStorageLocation()).isEqualTo("file:///savepoints/" + job);
        cairn.awaitJournal(TriggerRequest.class, r -> restId.equals(r.getRequestId()));
        assertThat(cairn.journal(TriggerRequest.class, r -> r.getJobId().equals(job)))
                .extracting(TriggerRequest::getRequestId).containsExactly(restId);
        ConsumerRecord<String, byte[]> dead = awaitDeadLetter(kafka, job);
        assertThat(header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("UNSIGNED");
        assertThat(header(dead, DeadLetterQueueHandler.MESSAGE)).contains("requests key", "allow.unsigned.requests");
        assertThat(header(dead, DeadLetterQueueHandler.SOURCE_TOPIC)).isEqualTo(cairn.topics().requests());
        assertThat(new String(dead.value(), StandardCharsets.UTF_8)).contains(FORGED_TARGET);
    }

    @Test
    void shouldDeadLetterASignedRequestAlteredAfterSigningAndTakeNoSavepoint(KafkaCluster kafka) {
        String job = startJob("altered");
        String alteredId = "altered-" + UUID.randomUUID();
        byte[] value = bytes(savepoint(job, alteredId));
        RecordHeaders signature = new RecordHeaders();
        RecordSignatures.sign(signature, cairn.requestsKey().orElseThrow(), value);
        byte[] altered = new String(value, StandardCharsets.ISO_8859_1).replace("file:///attacker", "file:///bttacker")
                .getBytes(StandardCharsets.ISO_8859_1);

        cairn.sendRawRequest(job, altered, signature);
        String markerId = "marker-" + UUID.randomUUID();
        cairn.sendRequest(job, new RequestEnvelope(Events.triggerRequest(job, markerId).build()));

        cairn.awaitJournal(TriggerRequest.class, r -> markerId.equals(r.getRequestId()));
        assertThat(cairn.journal(TriggerRequest.class, r -> alteredId.equals(r.getRequestId()))).isEmpty();
        ConsumerRecord<String, byte[]> dead = awaitDeadLetter(kafka, job);
        assertThat(header(dead, DeadLetterQueueHandler.REASON)).isEqualTo("BAD_SIGNATURE");
        assertThat(dead.value()).isEqualTo(altered);
    }

    /** Registers a job of one running subtask, checkpointed once an hour, through the REST API. */
    private static String startJob(String prefix) {
        String job = CoordinatorTestBed.uniqueJobId(prefix);
        HttpResponse<String> registered = cairn.rest().put("/jobs/" + job, "{\"tasks\": [{\"taskId\": \"source\", "
                + "\"parallelism\": 1}], \"config\": {\"intervalMs\": 3600000, \"timeoutMs\": 60000, "
                + "\"storageBaseLocation\": \"file:///cairn-it\"}}");
        assertThat(registered.statusCode()).isEqualTo(202);
        cairn.startTask(job, "source", 0, job + "-a1");
        cairn.rest().awaitJson("/jobs/" + job, node -> true);
        return job;
    }

    private static RequestEnvelope savepoint(String job, String requestId) {
        return new RequestEnvelope(Events.triggerRequest(job, requestId).setType(CheckpointType.SAVEPOINT)
                .setTargetLocation(FORGED_TARGET).build());
    }

    private static byte[] bytes(RequestEnvelope envelope) {
        return CairnSerdes.requests().serialize(cairn.topics().requests(), envelope);
    }

    private static ConsumerRecord<String, byte[]> awaitDeadLetter(KafkaCluster kafka, String key) {
        try (KafkaConsumer<String, byte[]> consumer = new KafkaConsumer<>(Map.of(
                ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, kafka.bootstrapServers(),
                ConsumerConfig.GROUP_ID_CONFIG, "dlq-reader-" + UUID.randomUUID(),
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed",
                ConsumerConfig.AUTO_OFFSET_RESET_CONFIG, "earliest"), new StringDeserializer(),
                new ByteArrayDeserializer())) {
            consumer.subscribe(List.of(cairn.topics().dlq()));
            List<ConsumerRecord<String, byte[]>> found = new ArrayList<>();
            Awaitility.await().atMost(CoordinatorTestBed.WAIT).until(() -> {
                consumer.poll(Duration.ofMillis(100)).forEach(r -> {
                    if (key.equals(r.key())) {
                        found.add(r);
                    }
                });
                return !found.isEmpty();
            });
            assertThat(found).as("dead letters of %s", key).hasSize(1);
            return found.get(0);
        }
    }

    private static String header(ConsumerRecord<String, byte[]> record, String name) {
        return new String(record.headers().lastHeader(name).value(), StandardCharsets.UTF_8);
    }
}
