package dev.cairn.events.serde;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowableOfType;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.CheckpointAcknowledged;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.TaskStarted;
import dev.cairn.events.serde.EventDecodingException.Problem;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicLong;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.specific.SpecificRecord;
import org.junit.jupiter.api.Test;

/**
 * A reader of this release meets records written with a newer release's schema: it reads them when the schemas
 * topic has that schema ({@link SchemaCatalog}), and only then; what the catalog reads from the topic is checked.
 */
class SchemaCatalogTest {

    private static final Schema NEWER_ACKS = NewerSchemas.withNewField(NewerSchemas.current(AckEnvelope.class));
    private static final Schema NEWER_CONTROL = NewerSchemas.withNewField(NewerSchemas.current(ControlEnvelope.class));

    private final AtomicLong clock = new AtomicLong();
    private final List<SchemaCatalog.Entry> topic = new ArrayList<>();
    private final AtomicInteger reads = new AtomicInteger();
    private int readUpTo;
    private final SchemaCatalog catalog = new SchemaCatalog(this::readNew, Duration.ofSeconds(10),
            Duration.ofSeconds(1), clock::get);

    private List<SchemaCatalog.Entry> readNew() {
        reads.incrementAndGet();
        List<SchemaCatalog.Entry> fresh = List.copyOf(topic.subList(readUpTo, topic.size()));
        readUpTo = topic.size();
        return fresh;
    }

    private void publish(Schema schema) {
        topic.add(entry(SchemaPublisher.key(schema), SchemaPublisher.value(schema)));
    }

    private SchemaCatalog.Entry entry(String key, byte[] value) {
        return new SchemaCatalog.Entry(key, value, "cairn.schemas-0@" + topic.size());
    }

    @Test
    void shouldReadAnAckWrittenWithANewerSchemaWhenTheCatalogHasIt() {
        TaskStarted started = (TaskStarted) SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0).getEvent();
        byte[] bytes = newerRecord(new AckEnvelope(started), NEWER_ACKS);
        publish(NEWER_ACKS);

        AckEnvelope read = CairnSerdes.forEnvelope(AckEnvelope.class, catalog).deserialize("cairn.acks", bytes);

        assertThat(read.getEvent()).as("the known fields intact, the new ones skipped").isEqualTo(started);
        assertThat(catalog.size()).isEqualTo(1);
    }

    @Test
    void shouldReadEveryControlEventWrittenWithANewerSchemaWhenTheCatalogHasIt() {
        publish(NEWER_CONTROL);
        AvroEventSerde<ControlEnvelope> serde = CairnSerdes.forEnvelope(ControlEnvelope.class, catalog);
        for (ControlEnvelope sample : SchemaSamples.oneOfEachEvent(ControlEnvelope.class)) {
            assertThat(serde.deserialize("cairn.control", newerRecord(sample, NEWER_CONTROL))).isEqualTo(sample);
        }
        assertThat(reads).as("one catch-up for the one new schema").hasValue(1);
    }

    @Test
    void shouldFailWithUnknownSchemaWithoutTheCatalogOrWhenTheTopicLacksTheSchema() {
        byte[] bytes = newerRecord(SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0), NEWER_ACKS);

        EventDecodingException withoutCatalog =
                catchDecoding(() -> CairnSerdes.acks().deserialize("cairn.acks", bytes));
        EventDecodingException notOnTopic = catchDecoding(() -> CairnSerdes.forEnvelope(AckEnvelope.class, catalog)
                .deserialize("cairn.acks", bytes));

        assertThat(withoutCatalog.problem()).isEqualTo(Problem.UNKNOWN_SCHEMA);
        assertThat(withoutCatalog.getMessage()).contains(Long.toHexString(AvroEventSerde.fingerprint(NEWER_ACKS)));
        assertThat(notOnTopic.problem()).isEqualTo(Problem.UNKNOWN_SCHEMA);
        assertThat(notOnTopic.getMessage()).contains("nor on the schemas topic");
    }

    @Test
    void shouldIgnoreAnEntryWhoseKeyIsNotItsSchemasFingerprint() {
        byte[] bytes = newerRecord(SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0), NEWER_ACKS);
        Schema other = NewerSchemas.withNewEvent(NewerSchemas.current(AckEnvelope.class), "TaskPaused");
        topic.add(entry(SchemaPublisher.key(NEWER_ACKS), SchemaPublisher.value(other)));

        EventDecodingException error = catchDecoding(() -> CairnSerdes.forEnvelope(AckEnvelope.class, catalog)
                .deserialize("cairn.acks", bytes));

        assertThat(error.problem()).isEqualTo(Problem.UNKNOWN_SCHEMA);
        assertThat(catalog.size()).isZero();
        assertThat(catalog.findByFingerprint(AvroEventSerde.fingerprint(other))).isNull();
    }

    @Test
    void shouldRefuseASchemaOfAnotherRecord() {
        Schema newerRequests = NewerSchemas.withNewField(NewerSchemas.current(RequestEnvelope.class));
        byte[] request = newerRecord(SchemaSamples.oneOfEachEvent(RequestEnvelope.class).get(0), newerRequests);
        publish(newerRequests);

        EventDecodingException error = catchDecoding(() -> CairnSerdes.forEnvelope(AckEnvelope.class, catalog)
                .deserialize("cairn.acks", request));

        assertThat(error.problem()).isEqualTo(Problem.WRONG_EVENT_TYPE);
        assertThat(error.getMessage()).contains("expected a AckEnvelope", "dev.cairn.events.RequestEnvelope");
        assertThat(CairnSerdes.forEnvelope(RequestEnvelope.class, catalog).deserialize("cairn.requests", request))
                .as("the requests serde reads it")
                .isEqualTo(SchemaSamples.oneOfEachEvent(RequestEnvelope.class).get(0));
    }

    @Test
    void shouldSkipMalformedEntriesAndKeepTheGoodOnes() {
        byte[] bytes = newerRecord(SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0), NEWER_ACKS);
        String key = SchemaPublisher.key(NEWER_ACKS);
        topic.add(entry(key, "not json at all".getBytes(StandardCharsets.UTF_8)));
        topic.add(entry(key, new byte[] {(byte) 0xC3, 0x28, (byte) 0xFF}));
        topic.add(entry(key,
                "{\"type\": \"record\", \"name\": \"X\", \"fields\": 7}".getBytes(StandardCharsets.UTF_8)));
        topic.add(entry(key, "[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[[".getBytes(StandardCharsets.UTF_8)));
        topic.add(entry(key, null));
        topic.add(entry(null, SchemaPublisher.value(NEWER_ACKS)));
        topic.add(entry(key.toUpperCase(), SchemaPublisher.value(NEWER_ACKS)));
        topic.add(entry("not-a-fingerprint", SchemaPublisher.value(NEWER_ACKS)));
        publish(NEWER_ACKS);

        AckEnvelope read = CairnSerdes.forEnvelope(AckEnvelope.class, catalog).deserialize("cairn.acks", bytes);

        assertThat(read).isEqualTo(SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0));
        assertThat(catalog.size()).isEqualTo(1);
    }

    @Test
    void shouldNotReadTheTopicMoreThanOncePerIntervalForAFloodOfUnknownFingerprints() {
        for (long fingerprint = 1; fingerprint <= 1_000; fingerprint++) {
            assertThat(catalog.findByFingerprint(fingerprint)).isNull();
        }
        assertThat(reads).as("1,000 misses within a second").hasValue(1);

        clock.addAndGet(Duration.ofMillis(1_500).toNanos());
        assertThat(catalog.findByFingerprint(1)).as("the same fingerprint waits for its retry interval").isNull();
        assertThat(reads).hasValue(1);
        assertThat(catalog.findByFingerprint(2_000)).isNull();
        assertThat(reads).as("another fingerprint, a second after the last read").hasValue(2);

        publish(NEWER_ACKS);
        long newer = AvroEventSerde.fingerprint(NEWER_ACKS);
        assertThat(catalog.findByFingerprint(newer)).as("within a second of the last read").isNull();
        clock.addAndGet(Duration.ofSeconds(1).toNanos());
        assertThat(AvroEventSerde.fingerprint(catalog.findByFingerprint(newer))).isEqualTo(newer);
        assertThat(catalog.findByFingerprint(newer)).isNotNull();
        assertThat(reads).as("a schema read once is kept").hasValue(3);

        clock.addAndGet(Duration.ofSeconds(10).toNanos());
        assertThat(catalog.findByFingerprint(1)).isNull();
        assertThat(reads).as("the first fingerprint again, after its retry interval").hasValue(4);
    }

    @Test
    void shouldAnswerNullWhenTheTopicCannotBeReadAndTryAgainLater() {
        AtomicInteger calls = new AtomicInteger();
        SchemaCatalog failing = new SchemaCatalog(() -> {
            if (calls.incrementAndGet() == 1) {
                throw new IllegalStateException("topic cairn.schemas does not exist");
            }
            return List.of(new SchemaCatalog.Entry(SchemaPublisher.key(NEWER_ACKS),
                    SchemaPublisher.value(NEWER_ACKS), "cairn.schemas-0@0"));
        }, Duration.ofSeconds(10), Duration.ofSeconds(1), clock::get);
        byte[] bytes = newerRecord(SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0), NEWER_ACKS);
        AvroEventSerde<AckEnvelope> serde = CairnSerdes.forEnvelope(AckEnvelope.class, failing);

        assertThat(catchDecoding(() -> serde.deserialize("cairn.acks", bytes)).problem())
                .isEqualTo(Problem.UNKNOWN_SCHEMA);
        clock.addAndGet(Duration.ofSeconds(10).toNanos());

        assertThat(serde.deserialize("cairn.acks", bytes))
                .isEqualTo(SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(0));
    }

    @Test
    void shouldStillNotReadANewEventTypeOfANewerUnion() {
        Schema newer = NewerSchemas.withNewEvent(NewerSchemas.current(AckEnvelope.class), "TaskPaused");
        publish(newer);
        AvroEventSerde<AckEnvelope> serde = CairnSerdes.forEnvelope(AckEnvelope.class, catalog);
        Schema paused = newer.getField("event").schema().getTypes().get(newer.getField("event").schema()
                .getTypes().size() - 1);
        GenericRecord pausedEvent = new org.apache.avro.generic.GenericData.Record(paused);
        pausedEvent.put("jobId", "job-1");
        GenericRecord envelope = new org.apache.avro.generic.GenericData.Record(newer);
        envelope.put("event", pausedEvent);
        CheckpointAcknowledged ack = (CheckpointAcknowledged) SchemaSamples.oneOfEachEvent(AckEnvelope.class).get(1)
                .getEvent();

        EventDecodingException error = catchDecoding(() -> serde.deserialize("cairn.acks",
                NewerSchemas.encode(newer, envelope)));
        AckEnvelope known = serde.deserialize("cairn.acks", newerRecord(new AckEnvelope(ack), newer));

        assertThat(error.problem()).as("an event type this release lacks").isEqualTo(Problem.CORRUPT);
        assertThat(known.getEvent()).as("the events it knows, written with the same schema").isEqualTo(ack);
    }

    @Test
    void shouldPublishEachSchemaUnderItsFingerprintAsItsCanonicalForm() {
        Schema acks = NewerSchemas.current(AckEnvelope.class);
        String key = SchemaPublisher.key(acks);
        Schema parsed = new Schema.Parser().parse(new String(SchemaPublisher.value(acks), StandardCharsets.UTF_8));

        assertThat(key).matches("[0-9a-f]{16}");
        assertThat(Long.parseUnsignedLong(key, 16)).isEqualTo(AvroEventSerde.fingerprint(acks));
        assertThat(AvroEventSerde.fingerprint(parsed)).isEqualTo(AvroEventSerde.fingerprint(acks));
        assertThat(SchemaPublisher.key(0x0abcL)).isEqualTo("0000000000000abc");
        assertThat(SchemaPublisher.key(-1L)).isEqualTo("ffffffffffffffff");
    }

    /** {@code sample} written with {@code newer}, its new fields set, in single-object encoding. */
    private static byte[] newerRecord(SpecificRecord sample, Schema newer) {
        GenericRecord record = NewerSchemas.asNewer(sample, newer, envelope -> {
            if (envelope.getSchema().getField(NewerSchemas.NEW_FIELD) != null) {
                envelope.put(NewerSchemas.NEW_FIELD, "written by the next release");
            }
            if (envelope.get("event") instanceof GenericRecord event
                    && event.getSchema().getField(NewerSchemas.NEW_FIELD) != null) {
                event.put(NewerSchemas.NEW_FIELD, "a new field of " + event.getSchema().getName());
            }
        });
        return NewerSchemas.encode(newer, record);
    }

    private static EventDecodingException catchDecoding(Runnable read) {
        return catchThrowableOfType(EventDecodingException.class, read::run);
    }
}
