package org.jhpvm.apps.bench;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.Socket;

/**
 * The link's own TCP throughput for {@code bench hosts}, as iperf3 measures it: a plain Java socket stream.
 * {@code sink PORT BYTES} accepts one connection, reads {@code BYTES} and answers one byte; {@code source HOST PORT
 * BYTES} connects (retrying for up to 10 s while the sink starts), writes {@code BYTES} in 1 MiB writes, waits for the
 * answer and prints {@code MBps X}: bytes over the time from the first write to the answer. Each side gives up after
 * 120 s.
 */
public final class LinkStream {
    private static final int CHUNK = 1 << 20;
    private static final int TIMEOUT_MS = 120_000;

    private LinkStream() {
    }

    /**
     * Runs one side.
     *
     * @param args {@code sink PORT BYTES} or {@code source HOST PORT BYTES}
     * @throws Exception on any failure (the process exits non-zero)
     */
    public static void main(final String[] args) throws Exception {
        if (args.length == 3 && args[0].equals("sink")) {
            sink(Integer.parseInt(args[1]), Long.parseLong(args[2]));
        } else if (args.length == 4 && args[0].equals("source")) {
            System.out.println("MBps " + source(args[1], Integer.parseInt(args[2]), Long.parseLong(args[3])));
        } else {
            throw new IllegalArgumentException("usage: sink PORT BYTES | source HOST PORT BYTES");
        }
    }

    private static void sink(final int port, final long bytes) throws IOException {
        try (ServerSocket server = new ServerSocket()) {
            server.setSoTimeout(TIMEOUT_MS);
            server.bind(new InetSocketAddress(port));
            System.out.println("listening");
            System.out.flush();
            try (Socket s = server.accept()) {
                s.setSoTimeout(TIMEOUT_MS);
                final InputStream in = s.getInputStream();
                final byte[] buf = new byte[CHUNK];
                long left = bytes;
                while (left > 0) {
                    final int n = in.read(buf, 0, (int) Math.min(buf.length, left));
                    if (n < 0) {
                        throw new IOException("the source closed after " + (bytes - left) + " of " + bytes + " bytes");
                    }
                    left -= n;
                }
                s.getOutputStream().write(1);
                s.getOutputStream().flush();
            }
        }
    }

    private static double source(final String host, final int port, final long bytes) throws Exception {
        final long deadline = System.nanoTime() + 10_000_000_000L;
        while (true) {
            try (Socket s = new Socket()) {
                s.connect(new InetSocketAddress(host, port), 1_000);
                s.setSoTimeout(TIMEOUT_MS);
                s.setTcpNoDelay(true);
                final OutputStream out = s.getOutputStream();
                final byte[] buf = new byte[CHUNK];
                final long t0 = System.nanoTime();
                long left = bytes;
                while (left > 0) {
                    final int n = (int) Math.min(buf.length, left);
                    out.write(buf, 0, n);
                    left -= n;
                }
                out.flush();
                new DataInputStream(s.getInputStream()).readByte();
                return bytes / 1e6 / ((System.nanoTime() - t0) / 1e9);
            } catch (java.net.ConnectException e) {
                if (System.nanoTime() - deadline > 0) {
                    throw e;
                }
                Thread.sleep(50);
            }
        }
    }
}
