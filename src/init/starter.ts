/**
 * The catalogue `catalogue init` writes: five real public-domain works by four directors, in two
 * library domains whose licence windows differ (the Catalan network has every work with no end
 * date; the English one has a shorter list, one window that ended and one that is still to come,
 * and other novelty and export windows). Covers and the photos are drawn (src/draw/draw.ts).
 * It shows the optional columns at work: the Catalan network's site is also in Spanish
 * (`languages`, `name_es`) and links each work to its lending platform (`watch_url`); the
 * directors have biographies and two works synopses in the three languages of the sites.
 */
export const STARTER: Record<string, string> = {
  "domains.csv": `domain,name,base_url,media_url,locale,default_ordering,new_days,export_window_days,languages,name_es,watch_url
biblioteques-llevant.example,Xarxa de Biblioteques de Llevant,,,ca,name,30,30,es,Red de Bibliotecas de Levante,https://prestec.biblioteques-llevant.example/obra/{id}/{slug}
library-south.example,South Library Network,,,en,-year,90,60,,,
`,
  "directors.csv": `id,name,slug,photo,show_img,description_es,description_en,description_ca
1,Georges Méliès,georges-melies,photos/georges-melies.jpg,true,"Ilusionista parisino que construyó uno de los primeros estudios de cine y dirigió más de quinientas películas llenas de trucos.","A Parisian illusionist who built one of the first film studios and directed more than five hundred films full of tricks.","Il·lusionista parisenc que va construir un dels primers estudis de cinema i va dirigir més de cinc-centes pel·lícules plenes de trucs."
2,Louis Lumière,louis-lumiere,,,"Con su hermano Auguste patentó en 1895 el cinematógrafo y organizó la primera sesión pública de pago.","With his brother Auguste he patented the cinématographe in 1895 and gave the first paid public screening.","Amb el seu germà Auguste va patentar el 1895 el cinematògraf i va organitzar la primera sessió pública de pagament."
3,Buster Keaton,buster-keaton,photos/buster-keaton.jpg,true,"Actor y director del cine mudo estadounidense, célebre por su rostro impasible y sus acrobacias.","An American silent-film actor and director, famous for his deadpan face and his stunts.","Actor i director del cinema mut nord-americà, cèlebre pel seu rostre impassible i per les seves acrobàcies."
4,F. W. Murnau,f-w-murnau,,,"Director alemán del expresionismo que después trabajó en Hollywood.","A German expressionist director who later worked in Hollywood.","Director alemany de l'expressionisme que després va treballar a Hollywood."
`,
  "audiovisuals.csv": `id,name,slug,audiovisual_type,director_id,year,duration,cover,status_global,synopsis_es,synopsis_en,synopsis_ca
1,Viaje a la Luna,viaje-a-la-luna,cortometrajes,1,1902,14,covers/viaje-a-la-luna.jpg,1,"Un congreso de astrónomos decide viajar a la Luna en una cápsula disparada por un cañón gigante. Allí los exploradores se enfrentan a los selenitas antes de volver a la Tierra.","A congress of astronomers travels to the Moon in a capsule fired from a giant cannon. There the explorers face the Selenites before returning to Earth.","Un congrés d'astrònoms decideix viatjar a la Lluna en una càpsula disparada per un canó gegant. Allà els exploradors s'enfronten als selenites abans de tornar a la Terra."
2,Salida de los obreros de la fábrica Lumière,salida-de-los-obreros-de-la-fabrica-lumiere,cortometrajes,2,1895,1,covers/salida-de-los-obreros-de-la-fabrica-lumiere.jpg,1,,,
3,El maquinista de La General,el-maquinista-de-la-general,peliculas,3,1926,78,covers/el-maquinista-de-la-general.jpg,1,,,
4,El moderno Sherlock Holmes,el-moderno-sherlock-holmes,peliculas,3,1924,45,covers/el-moderno-sherlock-holmes.jpg,1,,,
5,Nosferatu,nosferatu,peliculas,4,1922,94,covers/nosferatu.jpg,1,"El agente inmobiliario Hutter viaja a los Cárpatos para vender una casa al conde Orlok, un vampiro que lo sigue hasta su ciudad y trae consigo la peste.","The estate agent Hutter travels to the Carpathians to sell a house to Count Orlok, a vampire who follows him home and brings the plague with him.","L'agent immobiliari Hutter viatja als Carpats per vendre una casa al comte Orlok, un vampir que el segueix fins a la seva ciutat i hi porta la pesta."
`,
  "availability.csv": `audiovisual_id,domain,available_from,available_until
1,biblioteques-llevant.example,2024-01-15,
2,biblioteques-llevant.example,2024-03-01,
3,biblioteques-llevant.example,2024-06-10,
4,biblioteques-llevant.example,2025-02-01,
5,biblioteques-llevant.example,2025-10-31,
1,library-south.example,2024-05-01,2099-12-31
3,library-south.example,2024-05-01,2099-12-31
4,library-south.example,2024-05-01,2025-01-31
5,library-south.example,2090-01-01,
`,
};
