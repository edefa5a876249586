package dev.cairn.events.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointType;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.TriggerRequest;
import dev.cairn.events.serde.EventDecodingException.Problem;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import java.util.stream.Stream;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

class AvroEventSerdeTest {

    private final AvroEventSerde<RequestEnvelope> requests = CairnSerdes.requests();

    static Stream<AvroEventSerde<? extends SpecificRecord>> serdes() {
        return Stream.of(CairnSerdes.requests(), CairnSerdes.acks(), CairnSerdes.control(), CairnSerdes.journal(),
                CairnSerdes.retained());
    }

    @Test
    void shouldRoundTripEveryEventTypeOfEveryTopic() {
        roundTrip(CairnSerdes.requests(), RequestEnvelope.class);
        roundTrip(CairnSerdes.acks(), AckEnvelope.class);
        roundTrip(CairnSerdes.control(), ControlEnvelope.class);
        roundTrip(CairnSerdes.journal(), JournalEnvelope.class);
        roundTrip(CairnSerdes.retained(), RetainedCheckpoints.class);
    }

    private static <T extends SpecificRecord> void roundTrip(AvroEventSerde<T> serde, Class<T> type) {
        List<T> samples = SchemaSamples.oneOfEachEvent(type);
        assertThat(samples).isNotEmpty();
        for (T sample : samples) {
            byte[] bytes = serde.serialize("t", sample);
            assertThat(bytes[0]).isEqualTo((byte) 0xC3);
            assertThat(bytes[1]).isEqualTo((byte) 0x01);
            assertThat(serde.deserialize("t", bytes)).isEqualTo(sample);
        }
    }

    @Test
    void shouldKeepDefaultsOfATriggerRequest() {
        TriggerRequest request = TriggerRequest.newBuilder()
                .setJobId("job-1").setRequestId("r-1").setRequester("cli").setTimestampMs(42L).build();
        RequestEnvelope decoded = requests.deserialize("t", requests.serialize("t", new RequestEnvelope(request)));
        TriggerRequest read = (TriggerRequest) decoded.getEvent();
        assertThat(read.getType()).isEqualTo(CheckpointType.CHECKPOINT);
        assertThat(read.getForce()).isNull();
        assertThat(read.getTargetLocation()).isNull();
        assertThat(read.getPostCheckpointAction()).as("null: no post-checkpoint action").isNull();
        assertThat(read.getOptions()).isNull();
    }

    @ParameterizedTest
    @MethodSource("serdes")
    void shouldNameEmptyRecords(AvroEventSerde<?> serde) {
        assertProblem(() -> serde.deserialize("cairn.requests", null), Problem.EMPTY, "empty");
        assertProblem(() -> serde.deserialize("cairn.requests", new byte[0]), Problem.EMPTY, "empty");
    }

    @ParameterizedTest
    @MethodSource("serdes")
    void shouldRejectRandomBytesAsNotSingleObjectEncoded(AvroEventSerde<?> serde) {
        byte[] noise = new byte[64];
        new Random(7).nextBytes(noise);
        noise[0] = 0x7B;
        assertProblem(() -> serde.deserialize("cairn.acks", noise), Problem.NOT_SINGLE_OBJECT_ENCODED, "7B");
        byte[] json = "{\"jobId\":\"j\"}".getBytes(java.nio.charset.StandardCharsets.UTF_8);
        assertProblem(() -> serde.deserialize("cairn.acks", json), Problem.NOT_SINGLE_OBJECT_ENCODED, "C3 01");
    }

    @Test
    void shouldRejectATruncatedRecord() {
        byte[] whole = requests.serialize("t", SchemaSamples.oneOfEachEvent(RequestEnvelope.class).get(1));
        for (int length : new int[] {3, 10, 11, whole.length / 2, whole.length - 1}) {
            byte[] cut = Arrays.copyOf(whole, length);
            EventDecodingException error = catchDecoding(() -> requests.deserialize("cairn.requests", cut));
            assertThat(error.problem()).as("cut at %d of %d bytes", length, whole.length)
                    .isIn(Problem.TRUNCATED, Problem.UNKNOWN_SCHEMA, Problem.NOT_SINGLE_OBJECT_ENCODED);
        }
        EventDecodingException bodyCut = catchDecoding(
                () -> requests.deserialize("cairn.requests", Arrays.copyOf(whole, whole.length - 1)));
        assertThat(bodyCut.problem()).isEqualTo(Problem.TRUNCATED);
        assertThat(bodyCut.getMessage()).contains("ends early");
    }

    @Test
    void shouldRejectBytesAfterAWholeEvent() {
        byte[] whole = requests.serialize("t", SchemaSamples.oneOfEachEvent(RequestEnvelope.class).get(1));
        for (int extra : new int[] {1, 1024, 1_000_000}) {
            byte[] padded = Arrays.copyOf(whole, whole.length + extra);
            assertProblem(() -> requests.deserialize("cairn.requests", padded), Problem.TRAILING_BYTES,
                    "ends after " + whole.length + " of its " + padded.length + " bytes");
        }
    }

    @Test
    void shouldRejectAnUnknownFingerprint() {
        byte[] bytes = requests.serialize("t", SchemaSamples.oneOfEachEvent(RequestEnvelope.class).get(0));
        bytes[5] ^= 0x5A;
        assertProblem(() -> requests.deserialize("cairn.requests", bytes), Problem.UNKNOWN_SCHEMA,
                "no version Cairn knows");
    }

    @Test
    void shouldNameTheEventTypeFoundOnTheWrongTopic() {
        byte[] ack = CairnSerdes.acks().serialize("t", SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0));
        assertProblem(() -> requests.deserialize("cairn.requests", ack), Problem.WRONG_EVENT_TYPE,
                "expected a RequestEnvelope on topic cairn.requests but the record is a AckEnvelope");
    }

    @Test
    void shouldRejectACorruptBody() {
        byte[] bytes = requests.serialize("t", SchemaSamples.oneOfEachEvent(RequestEnvelope.class).get(0));
        bytes[10] = (byte) 0x7F;
        EventDecodingException error = catchDecoding(() -> requests.deserialize("cairn.requests", bytes));
        assertThat(error.problem()).isIn(Problem.CORRUPT, Problem.TRUNCATED);
        assertThat(error.getMessage()).contains("RequestEnvelope");
    }

    private static void assertProblem(Runnable read, Problem problem, String messagePart) {
        EventDecodingException error = catchDecoding(read);
        assertThat(error.problem()).isEqualTo(problem);
        assertThat(error.getMessage()).contains(messagePart);
    }

    private static EventDecodingException catchDecoding(Runnable read) {
        Throwable thrown = org.assertj.core.api.Assertions.catchThrowable(read::run);
        assertThat(thrown).isInstanceOf(EventDecodingException.class);
        return (EventDecodingException) thrown;
    }

    @Test
    void shouldRefuseToEncodeAnIncompleteEvent() {
        RequestEnvelope broken = new RequestEnvelope();
        assertThatThrownBy(() -> requests.serialize("cairn.requests", broken))
                .isInstanceOf(org.apache.kafka.common.errors.SerializationException.class)
                .hasMessageContaining("cannot encode RequestEnvelope");
    }
}
