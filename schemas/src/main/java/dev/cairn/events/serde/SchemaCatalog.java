package dev.cairn.events.serde;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.LongSupplier;
import org.apache.avro.Schema;
import org.apache.avro.message.SchemaStore;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The schemas written by other releases of Cairn, read from the schemas topic ({@code <prefix>schemas}, where
 * {@link SchemaPublisher} puts them): the fallback an {@link AvroEventSerde} asks for a fingerprint that none of the
 * versions it ships has, so that a reader resolves a newer writer's schema (Avro's schema resolution then skips the
 * fields it does not know and fills the ones the writer lacks with their defaults).
 *
 * <p>On a miss it catches up: it reads what was added to the topic since its last catch-up ({@link Source}; the
 * first one reads it all) and keeps every schema it read, so that a fingerprint is looked up on the topic once.
 * Catch-ups are rationed, so that a flood of records with made-up fingerprints cannot turn into a flood of reads:
 * the same missing fingerprint starts at most one every {@code retryInterval} (10 s by default), and any miss at
 * most one every {@code minSpacing} (1 s). A miss that may not catch up is answered {@code null} at once (the
 * record stays undecodable, {@link EventDecodingException.Problem#UNKNOWN_SCHEMA}).
 *
 * <p>Every record read is checked before its schema is used; one that fails is skipped with a warning and the
 * catalog goes on: the key must be 16 lower-case hex digits equal to the fingerprint recomputed from the value, and
 * the value a schema in UTF-8 JSON. The fingerprint (Avro's 64-bit Rabin fingerprint) catches a mistake, not an
 * attacker, who could forge a value to match a key: whoever may write the topic is trusted like a writer of
 * {@code cairn.acks}, and a signed record is still checked against its signature, which covers the bytes whatever
 * schema decodes them. Whether a schema is of the record a reader expects is the reader's check
 * ({@link AvroEventSerde} refuses another record's schema as {@link EventDecodingException.Problem#WRONG_EVENT_TYPE}).
 * At most {@value #MAX_SCHEMAS} schemas are kept. Thread-safe.
 */
public final class SchemaCatalog implements SchemaStore {

    /** How often the same missing fingerprint may start a catch-up, by default. */
    public static final Duration DEFAULT_RETRY_INTERVAL = Duration.ofSeconds(10);

    /** How close two catch-ups may follow each other, by default. */
    public static final Duration DEFAULT_MIN_SPACING = Duration.ofSeconds(1);

    /** The most schemas a catalog keeps; later ones are skipped with a warning. */
    public static final int MAX_SCHEMAS = 10_000;

    private static final Logger LOG = LoggerFactory.getLogger(SchemaCatalog.class);
    private static final int MAX_REMEMBERED_MISSES = 10_000;

    /**
     * One record of the schemas topic.
     *
     * @param key the record's key, as UTF-8 text (may be {@code null})
     * @param value the record's value (may be {@code null}: a tombstone)
     * @param where where it was read, for the log ({@code cairn.schemas-0@12})
     */
    public record Entry(String key, byte[] value, String where) {
    }

    /** What a catalog reads when it catches up. */
    @FunctionalInterface
    public interface Source {

        /**
         * The records added since the previous call (the first call: every record).
         *
         * @throws RuntimeException when the topic cannot be read; the catalog logs it and tries again later
         */
        List<Entry> readNew();
    }

    private final Source source;
    private final long retryIntervalNanos;
    private final long minSpacingNanos;
    private final LongSupplier nanoTime;
    private final Map<Long, Schema> schemas = new ConcurrentHashMap<>();
    /** When each missing fingerprint last started a catch-up. Guarded by {@code this}. */
    private final Map<Long, Long> lastTriedByFingerprint = new HashMap<>();
    /** When the last catch-up started; {@code null} before the first. Guarded by {@code this}. */
    private Long lastCatchUp;

    /**
     * @param source what a catch-up reads
     * @param retryInterval how often the same missing fingerprint may start a catch-up
     * @param minSpacing how close two catch-ups may follow each other
     * @param nanoTime the clock ({@code System::nanoTime})
     */
    public SchemaCatalog(Source source, Duration retryInterval, Duration minSpacing, LongSupplier nanoTime) {
        this.source = source;
        this.retryIntervalNanos = retryInterval.toNanos();
        this.minSpacingNanos = minSpacing.toNanos();
        this.nanoTime = nanoTime;
    }

    /**
     * A catalog of the schemas topic {@code topic}, read with a consumer of {@code consumerConfig} (connection and
     * security settings) made for each catch-up, with the default intervals and {@link SchemaTopicSource}'s
     * default time limit.
     */
    public static SchemaCatalog fromTopic(Map<String, ?> consumerConfig, String topic) {
        return new SchemaCatalog(new SchemaTopicSource(consumerConfig, topic, SchemaTopicSource.DEFAULT_TIMEOUT),
                DEFAULT_RETRY_INTERVAL, DEFAULT_MIN_SPACING, System::nanoTime);
    }

    /**
     * The schema of {@code fingerprint}: one read before, or, when a catch-up may start, one the topic holds now.
     *
     * @return {@code null} when the topic does not have it (or has not been read again yet)
     */
    @Override
    public Schema findByFingerprint(long fingerprint) {
        Schema known = schemas.get(fingerprint);
        return known != null ? known : catchUp(fingerprint);
    }

    /** How many schemas the catalog holds. */
    public int size() {
        return schemas.size();
    }

    private synchronized Schema catchUp(long fingerprint) {
        Schema known = schemas.get(fingerprint);
        if (known != null) {
            return known;
        }
        long now = nanoTime.getAsLong();
        Long triedAt = lastTriedByFingerprint.get(fingerprint);
        if ((triedAt != null && now - triedAt < retryIntervalNanos)
                || (lastCatchUp != null && now - lastCatchUp < minSpacingNanos)) {
            return null;
        }
        if (lastTriedByFingerprint.size() >= MAX_REMEMBERED_MISSES) {
            lastTriedByFingerprint.clear();
        }
        lastTriedByFingerprint.put(fingerprint, now);
        lastCatchUp = now;
        List<Entry> entries;
        try {
            entries = source.readNew();
        } catch (RuntimeException e) {
            LOG.warn("Could not read the schemas topic to resolve schema fingerprint {}: {}",
                    SchemaPublisher.key(fingerprint), e.toString());
            return null;
        }
        int added = 0;
        for (Entry entry : entries) {
            added += add(entry) ? 1 : 0;
        }
        Schema found = schemas.get(fingerprint);
        if (found != null) {
            lastTriedByFingerprint.remove(fingerprint);
            LOG.info("Resolved schema fingerprint {} from the schemas topic: a version of {} ({} records read, {} new "
                    + "schemas)", SchemaPublisher.key(fingerprint), found.getFullName(), entries.size(), added);
        } else {
            LOG.debug("Schema fingerprint {} is not on the schemas topic ({} records read, {} new schemas)",
                    SchemaPublisher.key(fingerprint), entries.size(), added);
        }
        return found;
    }

    /**
     * Takes one record of the schemas topic, after checking it (see the class comment).
     *
     * @return whether it added a schema: {@code false} for a record that fails a check (logged), a tombstone, a
     *     schema already known, or one past {@link #MAX_SCHEMAS}
     */
    public boolean add(Entry entry) {
        if (entry.value() == null) {
            return false;
        }
        Long fingerprint = parseKey(entry.key());
        if (fingerprint == null) {
            LOG.warn("Skipping the record at {} of the schemas topic: its key '{}' is not a fingerprint (16 lower-case "
                    + "hex digits)", entry.where(), abbreviated(entry.key()));
            return false;
        }
        if (schemas.containsKey(fingerprint)) {
            return false;
        }
        Schema schema = parse(entry);
        if (schema == null) {
            return false;
        }
        long actual = AvroEventSerde.fingerprint(schema);
        if (actual != fingerprint) {
            LOG.warn("Skipping the record at {} of the schemas topic: its key {} is not the fingerprint of its schema "
                    + "{} ({})", entry.where(), entry.key(), schema.getFullName(), SchemaPublisher.key(actual));
            return false;
        }
        if (schemas.size() >= MAX_SCHEMAS) {
            LOG.warn("Skipping the schema {} at {} of the schemas topic: the catalog holds {} schemas already",
                    entry.key(), entry.where(), MAX_SCHEMAS);
            return false;
        }
        return schemas.putIfAbsent(fingerprint, schema) == null;
    }

    private static Long parseKey(String key) {
        if (key == null || key.length() != 16) {
            return null;
        }
        for (int i = 0; i < key.length(); i++) {
            char c = key.charAt(i);
            if (!(c >= '0' && c <= '9') && !(c >= 'a' && c <= 'f')) {
                return null;
            }
        }
        return Long.parseUnsignedLong(key, 16);
    }

    private static Schema parse(Entry entry) {
        String json;
        try {
            json = StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT).decode(ByteBuffer.wrap(entry.value())).toString();
        } catch (CharacterCodingException e) {
            LOG.warn("Skipping the record at {} of the schemas topic (key {}): its value is not UTF-8 text",
                    entry.where(), entry.key());
            return null;
        }
        try {
            return new Schema.Parser().parse(json);
        } catch (RuntimeException | StackOverflowError e) {
            LOG.warn("Skipping the record at {} of the schemas topic (key {}): its value is not an Avro schema: {}",
                    entry.where(), entry.key(), abbreviated(String.valueOf(e.getMessage())));
            return null;
        }
    }

    private static String abbreviated(String text) {
        if (text == null) {
            return null;
        }
        return text.length() <= 200 ? text : text.substring(0, 200) + "...";
    }
}
