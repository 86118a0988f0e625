/** Turkish names, streets and places the benchmarks' generated parties are made of (each benchmark adds its own). */
export const TR_FIRST_NAMES = ['Ayşe', 'Mehmet', 'Şükrü', 'İbrahim', 'Gülşen', 'Çağrı', 'Öznur', 'Ümit', 'Ilgın', 'Doğan'];
export const TR_LAST_NAMES = ['Yılmaz', 'Kaya', 'Demir', 'Şahin', 'Çelik', 'Yıldız', 'Öztürk', 'Aydın', 'Arslan', 'Doğan'];
export const TR_STREETS = ['Atatürk Cd.', 'Bağdat Cd.', 'İnönü Sk.', 'Gül Sk.', 'Çiçek Sk.', 'Şehit Er Sk.', 'Cumhuriyet Blv.'];
export const TR_PLACES: [district: string, city: string, zip: string, province: string][] = [
  ['Kadıköy', 'İstanbul', '34710', 'TR-34'],
  ['Çankaya', 'Ankara', '06690', 'TR-06'],
  ['Konak', 'İzmir', '35250', 'TR-35'],
  ['Muratpaşa', 'Antalya', '07100', 'TR-07'],
  ['Osmangazi', 'Bursa', '16010', 'TR-16'],
];
