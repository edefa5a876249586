package dev.cairn.events.serde;

import dev.cairn.events.AckEnvelope;
import dev.cairn.events.ControlEnvelope;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.RequestEnvelope;
import dev.cairn.events.RestorePart;
import dev.cairn.events.RetainedCheckpoints;
import dev.cairn.events.SnapshotEnvelope;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.apache.avro.Schema;
import org.apache.avro.message.SchemaStore;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * The serdes of Cairn's topic values, one per envelope, each reading every frozen version of its
 * schema. Keys are plain UTF-8 job ids (Kafka's StringSerde). Each is built once and shared: building one
 * parses every frozen schema (about a millisecond), and Avro's message encoder and decoder are thread-safe.
 */
public final class CairnSerdes {

    /** The envelope types whose schemas are frozen and kept readable forever. */
    public static final List<Class<? extends SpecificRecord>> ENVELOPES = List.of(
            RequestEnvelope.class, AckEnvelope.class, ControlEnvelope.class, JournalEnvelope.class,
            RetainedCheckpoints.class, RestorePart.class, SnapshotEnvelope.class);

    private static final Map<Long, String> ALL_FINGERPRINTS = fingerprintsOfAllEnvelopes();
    private static final AvroEventSerde<RequestEnvelope> REQUESTS = forEnvelope(RequestEnvelope.class);
    private static final AvroEventSerde<AckEnvelope> ACKS = forEnvelope(AckEnvelope.class);
    private static final AvroEventSerde<ControlEnvelope> CONTROL = forEnvelope(ControlEnvelope.class);
    private static final AvroEventSerde<JournalEnvelope> JOURNAL = forEnvelope(JournalEnvelope.class);
    private static final AvroEventSerde<RetainedCheckpoints> RETAINED = forEnvelope(RetainedCheckpoints.class);
    private static final AvroEventSerde<RestorePart> RESTORE_PARTS = forEnvelope(RestorePart.class);
    private static final AvroEventSerde<SnapshotEnvelope> SNAPSHOTS = forEnvelope(SnapshotEnvelope.class);
    private static final Map<Class<?>, AvroEventSerde<?>> SHARED = Map.of(RequestEnvelope.class, REQUESTS,
            AckEnvelope.class, ACKS, ControlEnvelope.class, CONTROL, JournalEnvelope.class, JOURNAL,
            RetainedCheckpoints.class, RETAINED, RestorePart.class, RESTORE_PARTS, SnapshotEnvelope.class, SNAPSHOTS);

    private CairnSerdes() {}

    /** Values of cairn.requests. */
    public static AvroEventSerde<RequestEnvelope> requests() {
        return REQUESTS;
    }

    /** Values of cairn.acks. */
    public static AvroEventSerde<AckEnvelope> acks() {
        return ACKS;
    }

    /** Values of cairn.control. */
    public static AvroEventSerde<ControlEnvelope> control() {
        return CONTROL;
    }

    /** Values of cairn.journal. */
    public static AvroEventSerde<JournalEnvelope> journal() {
        return JOURNAL;
    }

    /** Values of cairn.completed. */
    public static AvroEventSerde<RetainedCheckpoints> retained() {
        return RETAINED;
    }

    /** Values of cairn.completed under a restore part's key (see {@code CairnTopics#restorePartKey}). */
    public static AvroEventSerde<RestorePart> restoreParts() {
        return RESTORE_PARTS;
    }

    /** Values of cairn.snapshots: a snapshot's chunks and manifest. */
    public static AvroEventSerde<SnapshotEnvelope> snapshots() {
        return SNAPSHOTS;
    }

    /**
     * A new serde for one of {@link #ENVELOPES}, reading all its frozen versions (the methods above share one each).
     */
    public static <T extends SpecificRecord> AvroEventSerde<T> forEnvelope(Class<T> type) {
        String name = SpecificData.get().getSchema(type).getName();
        return new AvroEventSerde<>(type, SchemaVersions.frozen(name), ALL_FINGERPRINTS);
    }

    /**
     * A new serde for one of {@link #ENVELOPES}, reading all its frozen versions and, for a fingerprint none of them
     * has, the schemas {@code fallback} finds (a {@link SchemaCatalog} of the schemas topic: what a reader of records
     * written by another program, maybe of a newer release, decodes with). A {@code null} fallback gives the shared
     * serde of the type (the methods above).
     */
    @SuppressWarnings("unchecked")
    public static <T extends SpecificRecord> AvroEventSerde<T> forEnvelope(Class<T> type, SchemaStore fallback) {
        if (fallback == null && SHARED.containsKey(type)) {
            return (AvroEventSerde<T>) SHARED.get(type);
        }
        String name = SpecificData.get().getSchema(type).getName();
        return new AvroEventSerde<>(type, SchemaVersions.frozen(name), ALL_FINGERPRINTS, fallback);
    }

    private static Map<Long, String> fingerprintsOfAllEnvelopes() {
        Map<Long, String> names = new HashMap<>();
        for (Class<? extends SpecificRecord> type : ENVELOPES) {
            Schema current = SpecificData.get().getSchema(type);
            names.put(AvroEventSerde.fingerprint(current), current.getName());
            for (Schema frozen : SchemaVersions.frozen(current.getName())) {
                names.put(AvroEventSerde.fingerprint(frozen), current.getName());
            }
        }
        return names;
    }
}
