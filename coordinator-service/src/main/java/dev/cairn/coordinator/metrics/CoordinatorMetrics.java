package dev.cairn.coordinator.metrics;

import dev.cairn.config.Release;
import dev.cairn.coordinator.rest.sources.StateSource;
import dev.cairn.coordinator.streams.StoreLayout;
import dev.cairn.metrics.PrometheusScrape;
import io.micrometer.core.instrument.Gauge;
import io.micrometer.core.instrument.binder.jvm.ClassLoaderMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmGcMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmMemoryMetrics;
import io.micrometer.core.instrument.binder.jvm.JvmThreadMetrics;
import io.micrometer.core.instrument.binder.kafka.KafkaStreamsMetrics;
import io.micrometer.core.instrument.binder.system.ProcessorMetrics;
import io.micrometer.core.instrument.binder.system.UptimeMetrics;
import io.micrometer.prometheusmetrics.PrometheusConfig;
import io.micrometer.prometheusmetrics.PrometheusMeterRegistry;
import org.apache.kafka.streams.KafkaStreams;

/**
 * The metrics of one coordinator instance, in one Prometheus registry: the per-job series read from the
 * stores ({@link JobMetrics}), those counted from decided events ({@link DecisionMetrics}), the dead letters
 * ({@code cairn_dead_letters_total}, counted by the dead-letter handler in {@link #registry()}), Kafka
 * Streams' own metrics ({@code kafka_stream_*}, bound with Micrometer's {@link KafkaStreamsMetrics}), and
 * the JVM's and the process's, {@code cairn_build_info{version, store_layout}} (always 1: which release an
 * instance runs, and the store layout it writes, so that a rolling upgrade can be followed instance by instance),
 * and {@code cairn_kafka_durability_warnings}: how many warnings the start-up check of what Kafka keeps of Cairn's
 * topics logged (NaN until it ran; 0 when Kafka keeps every acknowledged write).
 * {@link #scrape} answers {@code GET /metrics}.
 *
 * <p>Use: create it, build the topology with {@link #decisions()} and pass {@link #registry()} to the
 * dead-letter handler, then bind the Kafka Streams instance ({@link #bindStreams}) and its stores
 * ({@link #watchJobs}); {@link #close}
 * when the coordinator stops.
 */
public final class CoordinatorMetrics implements AutoCloseable {


    private final PrometheusMeterRegistry registry = new PrometheusMeterRegistry(PrometheusConfig.DEFAULT);
    private final DecisionMetrics decisions = new DecisionMetrics(registry);
    private final JvmGcMetrics gc = new JvmGcMetrics();
    private KafkaStreamsMetrics streams;
    private JobMetrics jobs;
    private volatile double durabilityWarnings = Double.NaN;

    /** With the JVM's and the process's metrics bound. */
    public CoordinatorMetrics() {
        new ClassLoaderMetrics().bindTo(registry);
        new JvmMemoryMetrics().bindTo(registry);
        gc.bindTo(registry);
        new JvmThreadMetrics().bindTo(registry);
        new ProcessorMetrics().bindTo(registry);
        new UptimeMetrics().bindTo(registry);
        Gauge.builder("cairn.build.info", () -> 1)
                .description("The Cairn release this instance runs and the store layout it writes")
                .tag("version", Release.version())
                .tag("store_layout", Long.toString(StoreLayout.CURRENT))
                .register(registry);
        Gauge.builder("cairn.kafka.durability.warnings", this, metrics -> metrics.durabilityWarnings)
                .description("Warnings logged at start-up because Kafka can lose what Cairn writes to its topics "
                        + "(docs/operations.md, What Kafka can lose); NaN until checked")
                .register(registry);
    }

    /** Reports how many warnings the start-up check of Cairn's topics' durability logged. */
    public void durabilityWarnings(int count) {
        durabilityWarnings = count;
    }

    /** The registry every coordinator metric is in. */
    public PrometheusMeterRegistry registry() {
        return registry;
    }

    /** Counts the decided events: the processor's listener. */
    public DecisionMetrics decisions() {
        return decisions;
    }

    /** Binds the metrics of the coordinator's Kafka Streams instance (created; it need not run yet). */
    public synchronized void bindStreams(KafkaStreams kafkaStreams) {
        streams = new KafkaStreamsMetrics(kafkaStreams);
        streams.bindTo(registry);
    }

    /** Reports the per-job series of the jobs in {@code state} (those this instance owns), read at every scrape. */
    public synchronized void watchJobs(StateSource state) {
        jobs = new JobMetrics(registry, state);
    }

    /**
     * Every metric now, in the format the {@code Accept} header asks for: OpenMetrics when it names
     * {@code application/openmetrics-text}, Prometheus' text format 0.0.4 otherwise.
     *
     * @param accept the request's {@code Accept} header; {@code null} when it has none
     */
    public synchronized PrometheusScrape scrape(String accept) {
        if (jobs != null) {
            jobs.refresh();
        }
        return PrometheusScrape.of(registry, accept);
    }

    @Override
    public synchronized void close() {
        if (streams != null) {
            streams.close();
        }
        gc.close();
        registry.close();
    }
}
