package dev.cairn.faults;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;

/** Recovery times of a fault run (fault -> every affected job triggered again) and their median and range. */
final class Recovery {

    private final String what;
    private final List<Duration> times = new ArrayList<>();

    Recovery(String what) {
        this.what = what;
    }

    void add(Duration time) {
        times.add(time);
        System.out.printf("[faults] %s #%d: %d ms%n", what, times.size(), time.toMillis());
    }

    Duration median() {
        List<Duration> sorted = times.stream().sorted().toList();
        int n = sorted.size();
        return n % 2 == 1 ? sorted.get(n / 2) : sorted.get(n / 2 - 1).plus(sorted.get(n / 2)).dividedBy(2);
    }

    Duration max() {
        return times.stream().max(Duration::compareTo).orElseThrow();
    }

    Duration min() {
        return times.stream().min(Duration::compareTo).orElseThrow();
    }

    String describe() {
        return String.format("%s over %d faults: median %.1f s, min %.1f s, max %.1f s", what, times.size(),
                median().toMillis() / 1000.0, min().toMillis() / 1000.0, max().toMillis() / 1000.0);
    }
}
