package dev.cairn.bench.audit;

import dev.cairn.client.audit.JournalReader;
import dev.cairn.core.audit.JournalChecker;
import dev.cairn.core.audit.Replay;
import dev.cairn.core.contract.CoordinatorSettings;
import dev.cairn.events.JournalEnvelope;
import dev.cairn.events.serde.AvroEventSerde;
import dev.cairn.events.serde.CairnSerdes;
import dev.cairn.kafka.EmbeddedKafkaBroker;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.ZoneOffset;
import java.time.ZonedDateTime;
import java.util.ArrayList;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.concurrent.ExecutionException;
import java.util.function.LongSupplier;
import java.util.function.Predicate;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.NewTopic;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The replay speed of {@code cairn audit}, next to a plain consumer reading the same topic in the same run, on
 * one in-JVM KRaft broker ({@link EmbeddedKafkaBroker}).
 *
 * <p>It writes a journal of at least {@code --events} events ({@link JournalWorkload}: the coordinator's own
 * decider, {@code --jobs} jobs of {@code --subtasks} subtasks checkpointing round after round) to a topic of
 * {@code --partitions} partitions, keyed by job id, then reads the whole topic back {@code --repeats} times with
 * each reader in turn, every reader in the same JVM from the same broker:
 * <ol>
 *   <li><b>raw consumer</b>: a plain {@code read_committed} consumer loop with the audit reader's consumer settings
 *       (polls of 2,000 records, otherwise the defaults), byte arrays, nothing decoded (as the end-to-end benchmark's
 *       raw consume);</li>
 *   <li><b>decoding consumer</b>: the same consumer decoding every value with the journal's serde;</li>
 *   <li><b>audit replay</b>: {@code JournalReader} (the audit's reader) decoding every record and folding it with
 *       the coordinator's evolver ({@code Replay}), what {@code cairn audit verify} and {@code state} do;</li>
 *   <li><b>audit check</b>: the same with the invariant checker ({@code JournalChecker}), what
 *       {@code cairn audit check} does.</li>
 * </ol>
 * No sidecar record is produced and no coordinator runs, so record signing does not apply: journal entries are
 * the coordinator's own output and carry no signature (only the acks topic is signed).
 * Each row is events/s over the whole topic (reader created, topic read to the end offsets taken at its start).
 * Each repeat starts with the next reader (so that no reader always runs first, or right after the same one); the
 * first repeat warms the JIT and the report gives each reader's median over the others, and its ratios to the
 * raw and to the decoding consumer's medians; every repeat is printed.
 *
 * <pre>
 * mvn -B -q -pl benchmarks -am process-classes -Paudit-benchmark -Daudit.args="--events=1000000"
 * </pre>
 * Flags: {@code --events} (1,000,000), {@code --jobs} (100), {@code --subtasks} (10), {@code --partitions} (3),
 * {@code --repeats} (5), {@code --out} (a markdown file, default {@code target/benchmark/audit.md}).
 */
public final class ReplayBenchmark {

    /** One reader's figures in one repeat. */
    record Row(int repeat, String reader, long events, double seconds) {
        double perSecond() {
            return events / seconds;
        }
    }

    /** What a run measured. */
    record Results(long events, long bytes, List<Row> rows) {
        /** The reported repeats: every one but the first (which warms the JIT), or the only one. */
        List<Row> reported() {
            return rows.stream().filter(r -> r.repeat() > 1 || rows.get(rows.size() - 1).repeat() == 1).toList();
        }

        /** The median events/s of one reader over the reported repeats. */
        double median(String reader) {
            double[] rates = reported().stream().filter(r -> r.reader().equals(reader))
                    .mapToDouble(Row::perSecond).sorted().toArray();
            int n = rates.length;
            return n % 2 == 1 ? rates[n / 2] : (rates[n / 2 - 1] + rates[n / 2]) / 2;
        }

        /** The median of {@code reader} against the median of {@code reference}. */
        double ratio(String reader, String reference) {
            return median(reader) / median(reference);
        }
    }

    static final String RAW = "raw consumer (bytes)";
    static final String DECODING = "plain consumer + decoding";
    static final String REPLAY = "audit replay (decode + evolve)";
    static final String CHECK = "audit check (decode + evolve + invariants)";

    private ReplayBenchmark() {
    }

    public static void main(String[] args) throws Exception {
        run(args);
    }

    /** Runs the benchmark with {@code --flag=value} arguments, prints and writes the report. */
    static Results run(String... args) throws Exception {
        Map<String, String> flags = flags(args);
        long events = Long.parseLong(flags.getOrDefault("events", "1000000"));
        int jobs = Integer.parseInt(flags.getOrDefault("jobs", "100"));
        int subtasks = Integer.parseInt(flags.getOrDefault("subtasks", "10"));
        int partitions = Integer.parseInt(flags.getOrDefault("partitions", "3"));
        int repeats = Integer.parseInt(flags.getOrDefault("repeats", "5"));
        Path out = Path.of(flags.getOrDefault("out", "target/benchmark/audit.md"));
        try (EmbeddedKafkaBroker broker = EmbeddedKafkaBroker.start()) {
            String topic = "bench.journal";
            try (Admin admin = broker.createAdmin()) {
                admin.createTopics(List.of(new NewTopic(topic, partitions, (short) 1))).all().get();
            }
            long[] produced = produce(broker.bootstrapServers(), topic, events, jobs, subtasks);
            Map<String, LongSupplier> readers = new LinkedHashMap<>();
            readers.put(RAW, () -> plainConsumer(broker.bootstrapServers(), topic, false));
            readers.put(DECODING, () -> plainConsumer(broker.bootstrapServers(), topic, true));
            readers.put(REPLAY, () -> replay(broker.bootstrapServers(), topic));
            readers.put(CHECK, () -> check(broker.bootstrapServers(), topic));
            List<String> order = new ArrayList<>(readers.keySet());
            List<Row> rows = new ArrayList<>();
            for (int repeat = 1; repeat <= repeats; repeat++) {
                for (String reader : order) {
                    rows.add(time(repeat, reader, readers.get(reader)));
                }
                Collections.rotate(order, -1);
            }
            Results results = new Results(produced[0], produced[1], rows);
            report(results, flags, out);
            return results;
        }
    }

    static long[] produce(String bootstrap, String topic, long events, int jobs, int subtasks)
            throws ExecutionException, InterruptedException {
        return produce(bootstrap, topic, events, jobs, subtasks, jobId -> true);
    }

    /**
     * Writes a {@link JournalWorkload} journal to {@code topic}, keyed by job id (so in the job's partition), of jobs
     * whose ids {@code jobIdFilter} accepts; returns the events and the bytes of their values written.
     */
    static long[] produce(String bootstrap, String topic, long events, int jobs, int subtasks,
            Predicate<String> jobIdFilter) throws ExecutionException, InterruptedException {
        AvroEventSerde<JournalEnvelope> serde = CairnSerdes.journal();
        Map<String, Object> settings = Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all", ProducerConfig.LINGER_MS_CONFIG, 20,
                ProducerConfig.BATCH_SIZE_CONFIG, 256 * 1024);
        long[] bytes = {0};
        long written;
        try (KafkaProducer<String, byte[]> producer = new KafkaProducer<>(settings, new StringSerializer(),
                new ByteArraySerializer())) {
            written = new JournalWorkload(jobs, subtasks, jobIdFilter).write(events, event -> {
                byte[] value = serde.serialize(topic, new JournalEnvelope(event));
                bytes[0] += value.length;
                producer.send(new ProducerRecord<>(topic, dev.cairn.core.events.EventFields.jobId(event), value));
            });
            producer.flush();
        }
        return new long[] {written, bytes[0]};
    }

    private static Row time(int repeat, String reader, LongSupplier read) {
        System.gc();
        long started = System.nanoTime();
        long events = read.getAsLong();
        double seconds = (System.nanoTime() - started) / 1e9;
        Row row = new Row(repeat, reader, events, seconds);
        System.out.printf(Locale.ROOT, "repeat %d  %-45s %,d events in %.2f s: %,.0f events/s%n", repeat, reader,
                events, seconds, row.perSecond());
        return row;
    }

    /**
     * A plain consumer loop reading every partition to its end offset, with the audit reader's consumer settings
     * ({@link JournalReader#FAST_FETCH}: polls of 2,000 records), decoding with the journal's serde when asked.
     */
    private static long plainConsumer(String bootstrap, String topic, boolean decode) {
        AvroEventSerde<JournalEnvelope> serde = CairnSerdes.journal();
        Map<String, Object> settings = new HashMap<>(JournalReader.FAST_FETCH);
        settings.putAll(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ConsumerConfig.ISOLATION_LEVEL_CONFIG, "read_committed", ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG,
                false));
        try (KafkaConsumer<byte[], byte[]> consumer = new KafkaConsumer<>(settings, new ByteArrayDeserializer(),
                new ByteArrayDeserializer())) {
            List<TopicPartition> partitions = consumer.partitionsFor(topic).stream()
                    .map(p -> new TopicPartition(topic, p.partition())).toList();
            consumer.assign(partitions);
            consumer.seekToBeginning(partitions);
            Map<TopicPartition, Long> end = consumer.endOffsets(partitions);
            long read = 0;
            long checksum = 0;
            while (partitions.stream().anyMatch(p -> consumer.position(p) < end.get(p))) {
                for (ConsumerRecord<byte[], byte[]> record : consumer.poll(Duration.ofMillis(100))) {
                    checksum += decode ? serde.deserialize(topic, record.value()).getSchema().hashCode() & 1
                            : record.value().length;
                    read++;
                }
            }
            return checksum == Long.MIN_VALUE ? -1 : read;
        }
    }

    static long replay(String bootstrap, String topic) {
        Replay replay = new Replay(CoordinatorSettings.DEFAULTS, null);
        new JournalReader(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap)).read(topic,
                JournalReader.Bounds.ALL, replay::accept, JournalReader.Progress.NONE, Duration.ofMinutes(10));
        if (replay.skipped() > 0) {
            throw new IllegalStateException(replay.skipped() + " records did not decode");
        }
        return replay.applied();
    }

    private static long check(String bootstrap, String topic) {
        JournalChecker checker = new JournalChecker(CoordinatorSettings.DEFAULTS);
        new JournalReader(Map.of(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap)).read(topic,
                JournalReader.Bounds.ALL, checker::accept, JournalReader.Progress.NONE, Duration.ofMinutes(10));
        int violations = checker.finish().size();
        if (violations > 0) {
            throw new IllegalStateException("the benchmark journal has " + violations + " violations");
        }
        return checker.records();
    }

    private static void report(Results results, Map<String, String> flags, Path out) throws IOException {
        StringBuilder md = new StringBuilder();
        md.append(String.format(Locale.ROOT, "Audit replay benchmark, %s, %d cores, Java %s, flags %s%n%n",
                ZonedDateTime.now(ZoneOffset.UTC).toLocalDate(), Runtime.getRuntime().availableProcessors(),
                System.getProperty("java.version"), flags));
        int repeats = results.rows().get(results.rows().size() - 1).repeat();
        md.append(String.format(Locale.ROOT, "%,d journal events (%,d bytes of values); %s%n%n", results.events(),
                results.bytes(), repeats == 1 ? "one repeat" : "median of repeats 2.." + repeats
                        + " (the first warms the JIT; each repeat starts with the next reader)"));
        md.append("| reader | events/s | ratio to the raw consumer | ratio to the decoding consumer |\n"
                + "|---|---:|---:|---:|\n");
        for (String reader : List.of(RAW, DECODING, REPLAY, CHECK)) {
            md.append(String.format(Locale.ROOT, "| %s | %,.0f | %.2f | %.2f |%n", reader, results.median(reader),
                    results.ratio(reader, RAW), results.ratio(reader, DECODING)));
        }
        md.append("\nEvery repeat:\n\n| repeat | reader | events | seconds | events/s |\n|---:|---|---:|---:|---:|\n");
        for (Row row : results.rows()) {
            md.append(String.format(Locale.ROOT, "| %d | %s | %,d | %.2f | %,.0f |%n", row.repeat(), row.reader(),
                    row.events(), row.seconds(), row.perSecond()));
        }
        printAndWrite(md, out);
    }

    /** Prints a report and writes it to {@code out}, creating its directory. */
    static void printAndWrite(CharSequence md, Path out) throws IOException {
        System.out.println();
        System.out.print(md);
        Files.createDirectories(out.toAbsolutePath().getParent());
        Files.writeString(out, md, StandardCharsets.UTF_8);
    }

    static Map<String, String> flags(String... args) {
        Map<String, String> flags = new HashMap<>();
        for (String arg : args) {
            if (!arg.startsWith("--") || !arg.contains("=")) {
                throw new IllegalArgumentException("expected --flag=value, got '" + arg + "'");
            }
            flags.put(arg.substring(2, arg.indexOf('=')), arg.substring(arg.indexOf('=') + 1));
        }
        return flags;
    }
}
