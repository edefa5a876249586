package dev.cairn.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.serde.SchemaSamples;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/** Every kind a sidecar sends to cairn.acks, signed as a sidecar signs it and verified as the coordinator does. */
class SignedAckKindsTest {

    private static final String TOPIC = "cairn.acks";
    private final SigningKey master = SigningKey.generate();
    private final VerifyingDeserializer<AckEnvelope> verifier =
            new VerifyingDeserializer<>(CairnSerdes.acks(), master, EnvelopeJobIds::of);

    @Test
    void shouldAcceptEveryKindSignedWithItsJobsKey() {
        for (AckEnvelope envelope : everyKind()) {
            RecordHeaders headers = new RecordHeaders();
            byte[] bytes = signer(master.jobKey(EnvelopeJobIds.of(envelope))).serialize(TOPIC, headers, envelope);

            assertThat(verifier.deserialize(TOPIC, headers, bytes)).as(kind(envelope)).isEqualTo(envelope);
        }
    }

    @Test
    void shouldRefuseEveryKindUnsignedOrSignedWithAnotherJobsKey() {
        for (AckEnvelope envelope : everyKind()) {
            byte[] unsigned = CairnSerdes.acks().serialize(TOPIC, envelope);
            RecordHeaders otherJobs = new RecordHeaders();
            byte[] forged = signer(master.jobKey("another-job")).serialize(TOPIC, otherJobs, envelope);

            assertThatThrownBy(() -> verifier.deserialize(TOPIC, new RecordHeaders(), unsigned)).as(kind(envelope))
                    .isInstanceOfSatisfying(EventDecodingException.class,
                            e -> assertThat(e.problem()).isEqualTo(EventDecodingException.Problem.UNSIGNED));
            assertThatThrownBy(() -> verifier.deserialize(TOPIC, otherJobs, forged)).as(kind(envelope))
                    .isInstanceOfSatisfying(EventDecodingException.class,
                            e -> assertThat(e.problem()).isEqualTo(EventDecodingException.Problem.BAD_SIGNATURE));
        }
    }

    private static List<AckEnvelope> everyKind() {
        List<AckEnvelope> kinds = SchemaSamples.oneOfEachEvent(AckEnvelope.class);
        assertThat(kinds).hasSize(AckEnvelope.getClassSchema().getField("event").schema().getTypes().size());
        return kinds;
    }

    private static SigningSerializer<AckEnvelope> signer(SigningKey jobKey) {
        return new SigningSerializer<>(CairnSerdes.acks(), jobKey);
    }

    private static String kind(AckEnvelope envelope) {
        return envelope.getEvent().getClass().getSimpleName();
    }
}
