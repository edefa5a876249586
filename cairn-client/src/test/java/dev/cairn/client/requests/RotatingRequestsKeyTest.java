package dev.cairn.client.requests;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.auth.RecordSignatures;
import dev.cairn.auth.RotatingKeys;
import dev.cairn.auth.SharedKeyVerifyingDeserializer;
import dev.cairn.auth.SigningKey;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.events.serde.EventDecodingException;
import dev.cairn.events.serde.SchemaSamples;
import java.time.Clock;
import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import org.apache.kafka.common.header.internals.RecordHeaders;
import org.apache.kafka.common.serialization.Serializer;
import org.junit.jupiter.api.Test;

/**
 * What the REST API signs with during a key rotation (a sender of {@link RotatingKeys}): the previous requests key
 * while the overlap lasts, so that an instance not yet restarted with the new master key accepts it as well as a
 * restarted one, then the current key, from the first send after the overlap on.
 */
class RotatingRequestsKeyTest {

    private static final String TOPIC = "cairn.requests";
    private static final Instant UNTIL = Instant.parse("2030-01-01T00:00:00Z");

    private final SigningKey previous = SigningKey.generate();
    private final SigningKey current = SigningKey.generate();
    private final RequestEnvelope request = SchemaSamples.oneOfEachEvent(RequestEnvelope.class).get(0);
    private final SettableClock clock = new SettableClock(UNTIL.minusSeconds(60));
    private final Serializer<RequestEnvelope> restApi = KafkaRequestSender.serializer(
            new RotatingKeys(current, previous, UNTIL).derive(SigningKey::requestsKey), clock);

    @Test
    void shouldSignWithThePreviousKeyThatEveryInstanceAcceptsDuringTheOverlap() {
        RecordHeaders headers = new RecordHeaders();
        byte[] value = restApi.serialize(TOPIC, headers, request);

        assertThat(RecordSignatures.keyId(headers)).isEqualTo(previous.requestsKey().id());
        assertThat(notYetRestarted().deserialize(TOPIC, headers, value)).isEqualTo(request);
        assertThat(restarted().deserialize(TOPIC, headers, value)).isEqualTo(request);
    }

    @Test
    void shouldSignWithTheCurrentKeyFromTheFirstSendAfterTheOverlap() {
        restApi.serialize(TOPIC, new RecordHeaders(), request);
        clock.now = UNTIL;
        RecordHeaders headers = new RecordHeaders();
        byte[] value = restApi.serialize(TOPIC, headers, request);

        assertThat(RecordSignatures.keyId(headers)).isEqualTo(current.requestsKey().id());
        assertThat(restarted().deserialize(TOPIC, headers, value)).isEqualTo(request);
        assertThatThrownBy(() -> notYetRestarted().deserialize(TOPIC, headers, value))
                .as("an instance still on the old master key alone refuses it: roll every instance before the end")
                .isInstanceOfSatisfying(EventDecodingException.class,
                        e -> assertThat(e.problem()).isEqualTo(EventDecodingException.Problem.BAD_SIGNATURE));
    }

    /** A coordinator instance that still runs with the old master key only. */
    private SharedKeyVerifyingDeserializer<RequestEnvelope> notYetRestarted() {
        return new SharedKeyVerifyingDeserializer<>(CairnSerdes.requests(), previous.requestsKey(), false, "sign");
    }

    /** A coordinator instance restarted with the new master key and the old one as previous. */
    private SharedKeyVerifyingDeserializer<RequestEnvelope> restarted() {
        return new SharedKeyVerifyingDeserializer<>(CairnSerdes.requests(),
                new RotatingKeys(current, previous, UNTIL).derive(SigningKey::requestsKey), false, "sign", clock);
    }

    /** A clock a test moves. */
    private static final class SettableClock extends Clock {
        private volatile Instant now;

        SettableClock(Instant now) {
            this.now = now;
        }

        @Override
        public ZoneId getZone() {
            return ZoneOffset.UTC;
        }

        @Override
        public Clock withZone(ZoneId zone) {
            return this;
        }

        @Override
        public Instant instant() {
            return now;
        }
    }
}
