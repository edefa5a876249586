package dev.cairn.client.requests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.auth.SharedKeyVerifyingDeserializer;
import dev.cairn.auth.SigningKey;
import dev.cairn.events.DisposeSavepoint;
import dev.cairn.events.RemoveJob;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RescaleJob;
import dev.cairn.events.RestoreJob;
import dev.cairn.events.RestoreMode;
import dev.cairn.events.TaskRescale;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * A restore, a rescale, a savepoint's disposal and a job's removal go the way of every request: in an envelope, keyed
 * by their job id, and signed with the requests key as the coordinator verifies it.
 */
class RequestSenderTest {

    private static final String TOPIC = "cairn.requests";

    private final List<String> keys = new ArrayList<>();
    private final List<RequestEnvelope> sent = new ArrayList<>();
    private final RequestSender sender = new RequestSender() {
        @Override
        public Delivery send(String jobId, RequestEnvelope envelope) {
            keys.add(jobId);
            sent.add(envelope);
            return new Delivery(TOPIC, 0, sent.size() - 1);
        }

        @Override
        public void close() {
        }
    };

    @Test
    void shouldSendARestoreARescaleADisposalAndARemovalKeyedByTheirJob() {
        RestoreJob restore = RestoreJob.newBuilder().setJobId("orders").setRequestId("r1").setCheckpointId(7L)
                .setRestoreMode(RestoreMode.CLAIM).setRequester("test").setTimestampMs(1).build();
        RescaleJob rescale = rescale("billing");
        DisposeSavepoint dispose = DisposeSavepoint.newBuilder().setJobId("orders").setRequestId("d1")
                .setSavepointPath("file:///sp-1").setRequester("test").setTimestampMs(2).build();

        RemoveJob remove = RemoveJob.newBuilder().setJobId("billing").setRequestId("x1").setRequester("test")
                .setTimestampMs(3).build();

        sender.send(restore);
        sender.send(rescale);
        sender.send(dispose);
        sender.send(remove);

        assertThat(keys).containsExactly("orders", "billing", "orders", "billing");
        assertThat(sent).extracting(RequestEnvelope::getEvent).containsExactly(restore, rescale, dispose, remove);
    }

    @Test
    void shouldSignARescaleSoThatTheCoordinatorsVerifierTakesItAndRefusesItWithAnyOtherKey() {
        SigningKey master = SigningKey.generate();
        RequestEnvelope envelope = new RequestEnvelope(rescale("orders"));
        SharedKeyVerifyingDeserializer<RequestEnvelope> verifier = new SharedKeyVerifyingDeserializer<>(
                CairnSerdes.requests(), master.requestsKey(), false, "sign with the requests key");

        RecordHeaders signed = new RecordHeaders();
        byte[] value = KafkaRequestSender.serializer(Optional.of(master.requestsKey())).serialize(TOPIC, signed,
                envelope);
        RecordHeaders forged = new RecordHeaders();
        byte[] forgedValue = KafkaRequestSender.serializer(Optional.of(SigningKey.generate().requestsKey()))
                .serialize(TOPIC, forged, envelope);
        Serializer<RequestEnvelope> unsigned = KafkaRequestSender.serializer(Optional.empty());

        assertThat(verifier.deserialize(TOPIC, signed, value)).isEqualTo(envelope);
        assertThatThrownBy(() -> verifier.deserialize(TOPIC, forged, forgedValue))
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.problem()).isEqualTo(EventDecodingException.Problem.BAD_SIGNATURE));
        assertThat(CairnSerdes.requests().deserialize(TOPIC, unsigned.serialize(TOPIC, envelope))).isEqualTo(envelope);
    }

    private static RescaleJob rescale(String jobId) {
        return RescaleJob.newBuilder().setJobId(jobId).setRequestId("s1")
                .setTasks(List.of(new TaskRescale("count", 3), new TaskRescale("sink", 1)))
                .setTargetLocation("file:///sp").setRestoreMode(RestoreMode.NO_CLAIM).setRequester("test")
                .setTimestampMs(3).build();
    }
}
