package dev.cairn.auth;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EnvelopeJobIds;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.serde.EventDecodingException.Problem;
import dev.cairn.events.serde.SchemaSamples;
import java.nio.charset.StandardCharsets;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneOffset;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.assertj.core.api.ThrowableAssert.ThrowingCallable;
import org.junit.jupiter.api.Test;

/**
 * A coordinator in the middle of a key rotation: it holds the current master key and the previous one until the end
 * of the overlap, and accepts sidecar records signed with either's job key and requests signed with either's requests
 * key, choosing by the key id header, while that overlap lasts; records of an earlier release carry no key id.
 */
class KeyRotationTest {

    private static final Instant UNTIL = Instant.parse("2030-01-01T00:00:00Z");
    private static final Clock DURING = Clock.fixed(UNTIL.minusSeconds(1), ZoneOffset.UTC);
    private static final Clock AFTER = Clock.fixed(UNTIL, ZoneOffset.UTC);
    private static final String ACKS = "cairn.acks";
    private static final String REQUESTS = "cairn.requests";

    private final SigningKey previous = SigningKey.generate();
    private final SigningKey current = SigningKey.generate();
    private final RotatingKeys masters = new RotatingKeys(current, previous, UNTIL);
    private final AckEnvelope ack = SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0);
    private final String job = EnvelopeJobIds.of(ack);
    private final RequestEnvelope request = SchemaSamples.oneOfEachEvent(RequestEnvelope.class).get(0);

    /** A value and the headers it was sent with. */
    private record Signed(RecordHeaders headers, byte[] value) {

        Signed withoutKeyId() {
            RecordHeaders older = new RecordHeaders(headers.toArray());
            older.remove(RecordSignatures.KEY_ID_HEADER);
            return new Signed(older, value);
        }

        Signed withKeyId(String keyId) {
            RecordHeaders other = new RecordHeaders(headers.toArray());
            other.remove(RecordSignatures.KEY_ID_HEADER);
            other.add(RecordSignatures.KEY_ID_HEADER, keyId.getBytes(StandardCharsets.ISO_8859_1));
            return new Signed(other, value);
        }
    }

    @Test
    void shouldAcceptRecordsSignedWithTheCurrentKeysBeforeAndAfterTheOverlap() {
        for (Clock clock : new Clock[] {DURING, AFTER}) {
            assertThat(readAck(ack(current.jobKey(job)), clock)).isEqualTo(ack);
            assertThat(readRequest(request(current.requestsKey()), clock)).isEqualTo(request);
        }
    }

    @Test
    void shouldAcceptThePreviousKeyUntilItsOverlapEnds() {
        assertThat(readAck(ack(previous.jobKey(job)), DURING)).isEqualTo(ack);
        assertThat(readRequest(request(previous.requestsKey()), DURING)).isEqualTo(request);
    }

    @Test
    void shouldRefuseThePreviousKeyOnceItsOverlapEndedNamingTheExpiry() {
        assertBadSignature(() -> readAck(ack(previous.jobKey(job)), AFTER),
                UNTIL.toString(), "previous key " + previous.jobKey(job).id(), current.jobKey(job).id());
        assertBadSignature(() -> readRequest(request(previous.requestsKey()), AFTER),
                UNTIL.toString(), "previous key " + previous.requestsKey().id(), current.requestsKey().id());
    }

    @Test
    void shouldRefuseAKeyItDoesNotHoldNamingItsId() {
        SigningKey otherJobs = current.jobKey("another-job");
        SigningKey otherMasters = SigningKey.generate().requestsKey();

        assertBadSignature(() -> readAck(ack(otherJobs), DURING), "key " + otherJobs.id(),
                "is not one this coordinator accepts", "another job's key");
        assertBadSignature(() -> readRequest(request(otherMasters), DURING), "key " + otherMasters.id(),
                "is not one this coordinator accepts");
        assertBadSignature(() -> readRequest(request(current.jobKey(job)), DURING), current.jobKey(job).id());
    }

    @Test
    void shouldVerifyARecordWithoutKeyIdFromAnOlderReleaseWithTheCurrentThenThePreviousKey() {
        assertThat(readAck(ack(current.jobKey(job)).withoutKeyId(), AFTER)).isEqualTo(ack);
        assertThat(readAck(ack(previous.jobKey(job)).withoutKeyId(), DURING)).isEqualTo(ack);
        assertThat(readRequest(request(current.requestsKey()).withoutKeyId(), AFTER)).isEqualTo(request);
        assertThat(readRequest(request(previous.requestsKey()).withoutKeyId(), DURING)).isEqualTo(request);

        assertBadSignature(() -> readAck(ack(previous.jobKey(job)).withoutKeyId(), AFTER), UNTIL.toString());
        assertBadSignature(() -> readRequest(request(previous.requestsKey()).withoutKeyId(), AFTER),
                UNTIL.toString());
        assertBadSignature(() -> readAck(ack(current.jobKey("another-job")).withoutKeyId(), DURING),
                "does not match", "without " + RecordSignatures.KEY_ID_HEADER);
    }

    @Test
    void shouldRefuseARecordWhoseKeyIdNamesAnotherAcceptedKeyThanTheOneThatSignedIt() {
        Signed relabelled = ack(previous.jobKey(job)).withKeyId(current.jobKey(job).id());

        assertBadSignature(() -> readAck(relabelled, DURING), "does not match", current.jobKey(job).id());
    }

    @Test
    void shouldRefuseAMalformedKeyIdWithoutQuotingIt() {
        String garbage = "\u0000not-a-key-id" + "x".repeat(1000);

        assertThatThrownBy(() -> readRequest(request(current.requestsKey()).withKeyId(garbage), DURING))
                .isInstanceOfSatisfying(EventDecodingException.class, e -> {
                    assertThat(e.problem()).isEqualTo(Problem.BAD_SIGNATURE);
                    assertThat(e.getMessage()).contains("malformed").doesNotContain("not-a-key-id");
                });
    }

    @Test
    void shouldRefuseAnyBitFlippedInTheValueWhicheverKeySignedIt() {
        for (Signed signed : new Signed[] {request(current.requestsKey()), request(previous.requestsKey()),
                request(previous.requestsKey()).withoutKeyId()}) {
            for (int bit = 0; bit < signed.value().length * 8; bit++) {
                byte[] flipped = signed.value().clone();
                flipped[bit / 8] ^= (byte) (1 << (bit % 8));

                assertBadSignature(() -> readRequest(new Signed(signed.headers(), flipped), DURING));
            }
        }
        Signed signedAck = ack(previous.jobKey(job));
        for (int bit = 0; bit < signedAck.value().length * 8; bit++) {
            byte[] flipped = signedAck.value().clone();
            flipped[bit / 8] ^= (byte) (1 << (bit % 8));

            assertThatThrownBy(() -> readAck(new Signed(signedAck.headers(), flipped), DURING))
                    .isInstanceOf(EventDecodingException.class);
        }
    }

    @Test
    void shouldSignWithThePreviousKeyDuringTheOverlapAndTheCurrentOneAfterIt() {
        RotatingKeys requestsKeys = masters.derive(SigningKey::requestsKey);

        assertThat(requestsKeys.signingKeyAt(DURING.instant()).id()).isEqualTo(previous.requestsKey().id());
        assertThat(requestsKeys.signingKeyAt(AFTER.instant()).id()).isEqualTo(current.requestsKey().id());
        assertThat(RotatingKeys.of(current).signingKeyAt(DURING.instant())).isSameAs(current);
    }

    @Test
    void shouldRefuseAPreviousKeyWithoutTheEndOfItsOverlapOrEqualToTheCurrentKey() {
        assertThatThrownBy(() -> new RotatingKeys(current, previous, null))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining("overlap");
        assertThatThrownBy(() -> new RotatingKeys(current, SigningKey.fromBase64(current.toBase64()), UNTIL))
                .isInstanceOf(IllegalArgumentException.class).hasMessageContaining(current.id());
    }

    private Signed ack(SigningKey key) {
        RecordHeaders headers = new RecordHeaders();
        byte[] value = new SigningSerializer<>(CairnSerdes.acks(), key).serialize(ACKS, headers, ack);
        return new Signed(headers, value);
    }

    private Signed request(SigningKey key) {
        RecordHeaders headers = new RecordHeaders();
        byte[] value = new SigningSerializer<>(CairnSerdes.requests(), key).serialize(REQUESTS, headers, request);
        return new Signed(headers, value);
    }

    private AckEnvelope readAck(Signed signed, Clock clock) {
        return new VerifyingDeserializer<>(CairnSerdes.acks(), masters, EnvelopeJobIds::of, clock)
                .deserialize(ACKS, signed.headers(), signed.value());
    }

    private RequestEnvelope readRequest(Signed signed, Clock clock) {
        return new SharedKeyVerifyingDeserializer<>(CairnSerdes.requests(), masters.derive(SigningKey::requestsKey),
                false, "sign it", clock).deserialize(REQUESTS, signed.headers(), signed.value());
    }

    private static void assertBadSignature(ThrowingCallable read, String... messageParts) {
        assertThatThrownBy(read).isInstanceOfSatisfying(EventDecodingException.class, e -> {
            assertThat(e.problem()).isEqualTo(Problem.BAD_SIGNATURE);
            for (String part : messageParts) {
                assertThat(e.getMessage()).contains(part);
            }
        });
    }
}
