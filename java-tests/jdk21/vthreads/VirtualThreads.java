package vthreads;

import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;

/** 1000 virtual threads (JDK 21+) that sleep and call a small method; prints a checksum. */
public class VirtualThreads {
    static long work(int n) {
        long s = 0;
        for (int i = 0; i < n; i++) {
            s += leaf(i);
        }
        return s;
    }

    static long leaf(int i) {
        return i * 31L;
    }

    public static void main(String[] args) throws Exception {
        try (ExecutorService ex = Executors.newVirtualThreadPerTaskExecutor()) {
            List<Future<Long>> fs = new ArrayList<>();
            for (int t = 0; t < 1000; t++) {
                fs.add(ex.submit(() -> {
                    Thread.sleep(1);
                    return work(1000);
                }));
            }
            long s = 0;
            for (Future<Long> f : fs) {
                s += f.get();
            }
            System.out.println("virtual threads " + s);
        }
    }
}
