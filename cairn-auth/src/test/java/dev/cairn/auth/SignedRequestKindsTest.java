package dev.cairn.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.serde.SchemaSamples;
import java.util.Arrays;
import java.util.List;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.junit.jupiter.api.Test;

/**
 * Every kind of request (job spec, trigger request, status change), signed as the REST API and the CLI sign it and
 * verified as the coordinator does.
 */
class SignedRequestKindsTest {

    private static final String TOPIC = "cairn.requests";
    private static final String REMEDY = "sign with the requests key";
    private final SigningKey master = SigningKey.generate();
    private final SharedKeyVerifyingDeserializer<RequestEnvelope> verifier =
            new SharedKeyVerifyingDeserializer<>(CairnSerdes.requests(), master.requestsKey(), false, REMEDY);

    @Test
    void shouldAcceptEveryKindSignedWithTheRequestsKey() {
        for (RequestEnvelope envelope : everyKind()) {
            RecordHeaders headers = new RecordHeaders();
            byte[] bytes = signer(master.requestsKey()).serialize(TOPIC, headers, envelope);

            assertThat(verifier.deserialize(TOPIC, headers, bytes)).as(kind(envelope)).isEqualTo(envelope);
        }
    }

    @Test
    void shouldRefuseEveryKindUnsignedWithAMessageSayingWhatToDo() {
        for (RequestEnvelope envelope : everyKind()) {
            byte[] unsigned = CairnSerdes.requests().serialize(TOPIC, envelope);

            assertThatThrownBy(() -> verifier.deserialize(TOPIC, new RecordHeaders(), unsigned)).as(kind(envelope))
                    .isInstanceOfSatisfying(EventDecodingException.class, e -> {
                        assertThat(e.problem()).isEqualTo(EventDecodingException.Problem.UNSIGNED);
                        assertThat(e.getMessage()).contains(RecordSignatures.HEADER, TOPIC, REMEDY);
                    });
        }
    }

    @Test
    void shouldRefuseEveryKindSignedWithAJobKeyOrTheMasterKeyOrAnotherMastersRequestsKey() {
        for (RequestEnvelope envelope : everyKind()) {
            for (SigningKey wrong : List.of(master.jobKey(EnvelopeJobIds.of(envelope)), master,
                    SigningKey.generate().requestsKey())) {
                RecordHeaders headers = new RecordHeaders();
                byte[] forged = signer(wrong).serialize(TOPIC, headers, envelope);

                assertBadSignature(headers, forged, kind(envelope));
            }
        }
    }

    @Test
    void shouldRefuseEveryKindWithAnyBitOfItsValueFlipped() {
        for (RequestEnvelope envelope : everyKind()) {
            RecordHeaders headers = new RecordHeaders();
            byte[] signed = signer(master.requestsKey()).serialize(TOPIC, headers, envelope);
            for (int bit = 0; bit < signed.length * 8; bit++) {
                byte[] flipped = signed.clone();
                flipped[bit / 8] ^= (byte) (1 << (bit % 8));

                assertBadSignature(headers, flipped, kind(envelope) + " with bit " + bit + " flipped");
            }
        }
    }

    @Test
    void shouldRefuseAValueCutShortOrGrownAfterSigning() {
        RequestEnvelope envelope = everyKind().get(0);
        RecordHeaders headers = new RecordHeaders();
        byte[] signed = signer(master.requestsKey()).serialize(TOPIC, headers, envelope);
        byte[] grown = Arrays.copyOf(signed, signed.length + 1);

        assertBadSignature(headers, Arrays.copyOf(signed, signed.length - 1), "cut short");
        assertBadSignature(headers, grown, "one byte longer");
        assertBadSignature(headers, new byte[0], "empty");
    }

    @Test
    void shouldAcceptUnsignedRequestsButStillCheckSignedOnesWhereUnsignedOnesAreAllowed() {
        SharedKeyVerifyingDeserializer<RequestEnvelope> lenient =
                new SharedKeyVerifyingDeserializer<>(CairnSerdes.requests(), master.requestsKey(), true, REMEDY);
        for (RequestEnvelope envelope : everyKind()) {
            byte[] unsigned = CairnSerdes.requests().serialize(TOPIC, envelope);
            RecordHeaders forgedHeaders = new RecordHeaders();
            byte[] forged = signer(SigningKey.generate()).serialize(TOPIC, forgedHeaders, envelope);

            assertThat(lenient.deserialize(TOPIC, new RecordHeaders(), unsigned)).as(kind(envelope))
                    .isEqualTo(envelope);
            assertThatThrownBy(() -> lenient.deserialize(TOPIC, forgedHeaders, forged)).as(kind(envelope))
                    .isInstanceOfSatisfying(EventDecodingException.class,
                            e -> assertThat(e.problem()).isEqualTo(EventDecodingException.Problem.BAD_SIGNATURE));
        }
    }

    @Test
    void shouldDeriveARequestsKeyThatIsNoJobsKeyAndTheSameForTheSameMaster() {
        SigningKey requestsKey = master.requestsKey();

        assertThat(requestsKey.toBase64()).isEqualTo(SigningKey.fromBase64(master.toBase64()).requestsKey().toBase64())
                .isNotEqualTo(master.toBase64())
                .isNotEqualTo(master.jobKey("").toBase64())
                .isNotEqualTo(master.jobKey("requests").toBase64())
                .isNotEqualTo(SigningKey.generate().requestsKey().toBase64());
    }

    private void assertBadSignature(RecordHeaders headers, byte[] value, String what) {
        assertThatThrownBy(() -> verifier.deserialize(TOPIC, headers, value)).as(what)
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.problem()).isEqualTo(EventDecodingException.Problem.BAD_SIGNATURE));
    }

    private static List<RequestEnvelope> everyKind() {
        List<RequestEnvelope> kinds = SchemaSamples.oneOfEachEvent(RequestEnvelope.class);
        assertThat(kinds).hasSize(RequestEnvelope.getClassSchema().getField("event").schema().getTypes().size());
        return kinds;
    }

    private static SigningSerializer<RequestEnvelope> signer(SigningKey key) {
        return new SigningSerializer<>(CairnSerdes.requests(), key);
    }

    private static String kind(RequestEnvelope envelope) {
        return envelope.getEvent().getClass().getSimpleName();
    }
}
