import java.util.*;

public class Collect {
    static class Person implements Comparable<Person> {
        final String name;
        final int age;
        Person(String name, int age) { this.name = name; this.age = age; }
        public int compareTo(Person o) { return Integer.compare(age, o.age); }
        public String toString() { return name + "(" + age + ")"; }
        public boolean equals(Object o) { return o instanceof Person && ((Person) o).name.equals(name) && ((Person) o).age == age; }
        public int hashCode() { return name.hashCode() * 31 + age; }
    }
    public static void main(String[] args) {
        List<Integer> list = new ArrayList<>();
        for (int i = 0; i < 20; i++) list.add((i * 7) % 13);
        System.out.println(list + " size=" + list.size());
        Collections.sort(list);
        System.out.println(list);
        list.remove(Integer.valueOf(12));
        list.remove(0);
        list.add(3, 99);
        System.out.println(list + " " + list.indexOf(99) + " " + list.contains(5) + " " + list.get(4));
        Collections.reverse(list);
        System.out.println(list + " max=" + Collections.max(list) + " min=" + Collections.min(list));
        Collections.shuffle(list, new Random(7));
        System.out.println(list);
        Iterator<Integer> it = list.iterator();
        while (it.hasNext()) if (it.next() % 2 == 0) it.remove();
        System.out.println(list + " hash=" + list.hashCode());
        try { list.get(100); } catch (IndexOutOfBoundsException e) { System.out.println(e.getMessage()); }
        try { for (Integer x : list) if (x == 9) list.add(1); } catch (ConcurrentModificationException e) { System.out.println("CME"); }

        List<Person> people = new ArrayList<>();
        String[] names = { "ann", "bob", "cid", "dan", "eve", "fay", "gus", "hal" };
        for (int i = 0; i < names.length; i++) people.add(new Person(names[i], 20 + (i * 5) % 3));
        Collections.sort(people);
        System.out.println(people);
        people.sort(new Comparator<Person>() {
            public int compare(Person a, Person b) { return b.name.compareTo(a.name); }
        });
        System.out.println(people);
        people.sort(Collections.reverseOrder());
        System.out.println(people);

        LinkedList<String> ll = new LinkedList<>();
        ll.add("b"); ll.addFirst("a"); ll.addLast("c"); ll.push("z"); ll.offer("d");
        System.out.println(ll + " " + ll.peek() + " " + ll.getLast() + " " + ll.size());
        System.out.println(ll.pop() + " " + ll.poll() + " " + ll.removeLast() + " " + ll);
        ll.add(1, "mid");
        ListIterator<String> li = ll.listIterator();
        while (li.hasNext()) { String s = li.next(); if (s.equals("mid")) li.set("MID"); }
        System.out.println(ll + " " + ll.indexOf("c"));

        Map<String, Integer> map = new HashMap<>();
        for (int i = 0; i < 50; i++) map.put("key" + (i * 37 % 50), i);
        System.out.println(map.size() + " " + map.get("key10") + " " + map.containsKey("key49") + " " + map.containsKey("nokey"));
        System.out.println(map);
        map.remove("key0");
        map.put(null, -1);
        map.putIfAbsent("key1", 1000);
        map.putIfAbsent("new", 1000);
        int total = 0;
        for (Map.Entry<String, Integer> e : map.entrySet()) total += e.getValue();
        System.out.println(total + " " + map.get(null) + " " + map.keySet().size() + " " + map.values().size());
        Map<Integer, String> im = new HashMap<>();
        for (int i = 100; i > 0; i -= 7) im.put(i * 1000, "v" + i);
        System.out.println(im.keySet());
        System.out.println(im.values());
        Map<Person, Integer> pm = new HashMap<>();
        for (Person p : people) pm.put(p, p.age);
        System.out.println(pm.get(new Person("eve", 21)) + " " + pm.size());

        Set<String> set = new HashSet<>();
        for (String s : "the quick brown fox jumps over the lazy dog the end".split(" ")) set.add(s);
        System.out.println(set + " " + set.size() + " " + set.contains("fox"));
        Set<Integer> si = new HashSet<>(Arrays.asList(5, 3, 17, 33, 65, 1024, -1));
        System.out.println(si + " " + si.hashCode() + " " + si.equals(new HashSet<>(Arrays.asList(-1, 3, 5, 17, 33, 65, 1024))));

        int[] arr = { 9, -2, 7, 0, 3, 3, 100, -50 };
        int[] copy = Arrays.copyOf(arr, 10);
        Arrays.sort(arr);
        System.out.println(Arrays.toString(arr) + " " + Arrays.toString(copy) + " " + Arrays.binarySearch(arr, 7));
        double[] ds = { 3.5, -0.0, 0.0, Double.NaN, -1e9, 2 };
        Arrays.sort(ds);
        System.out.println(Arrays.toString(ds));
        String[] ss = { "pear", "apple", "fig" };
        Arrays.sort(ss);
        System.out.println(Arrays.toString(ss) + " " + Arrays.asList(ss) + " " + Arrays.hashCode(arr) + " " + Arrays.equals(arr, arr.clone()));
        long[] ls = new long[5];
        Arrays.fill(ls, 7L);
        System.out.println(Arrays.toString(ls) + " " + Arrays.toString(Arrays.copyOfRange(arr, 2, 5)));
        Integer[][] grid = new Integer[2][3];
        grid[1][2] = 5;
        int[][][] cube = new int[2][3][4];
        cube[1][2][3] = 9;
        System.out.println(Arrays.deepToString(grid) + " " + cube[1][2][3] + " " + cube[0].length + " " + cube[1][1].length);
        Random r = new Random(12345);
        StringBuilder sb = new StringBuilder();
        for (int i = 0; i < 5; i++) sb.append(r.nextInt()).append(' ').append(r.nextInt(1000)).append(' ').append(r.nextLong()).append(' ');
        System.out.println(sb);
        System.out.println(r.nextDouble() + " " + r.nextFloat() + " " + r.nextBoolean() + " " + r.nextGaussian());
        System.out.println(Objects.hash(1, "a", null) + " " + Objects.equals(null, null) + " " + Objects.toString(null, "dflt"));
    }
}
