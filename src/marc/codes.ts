/**
 * BCP 47 language tags (as the catalogue's audio and subtitle columns hold them) to MARC language
 * codes (the MARC Code List for Languages, which is ISO 639-2/B with a few codes of its own).
 * Sources: the Library of Congress's MARC Code List for Languages and ISO 639-2 (its 639-1
 * column, and its bibliographic codes beside the terminologic ones); sign languages from
 * ISO 639-3, which MARC codes `sgn` as a whole.
 */

/** ISO 639-1 to the MARC code (639-2/B). */
const FROM_639_1 = table(`
  aa aar ab abk ae ave af afr ak aka am amh an arg ar ara as asm av ava ay aym az aze
  ba bak be bel bg bul bh bih bi bis bm bam bn ben bo tib br bre bs bos
  ca cat ce che ch cha co cos cr cre cs cze cu chu cv chv cy wel
  da dan de ger dv div dz dzo ee ewe el gre en eng eo epo es spa et est eu baq
  fa per ff ful fi fin fj fij fo fao fr fre fy fry ga gle gd gla gl glg gn grn gu guj gv glv
  ha hau he heb hi hin ho hmo hr hrv ht hat hu hun hy arm hz her
  ia ina id ind ie ile ig ibo ii iii ik ipk io ido is ice it ita iu iku ja jpn jv jav
  ka geo kg kon ki kik kj kua kk kaz kl kal km khm kn kan ko kor kr kau ks kas ku kur kv kom
  kw cor ky kir la lat lb ltz lg lug li lim ln lin lo lao lt lit lu lub lv lav
  mg mlg mh mah mi mao mk mac ml mal mn mon mr mar ms may mt mlt my bur
  na nau nb nob nd nde ne nep ng ndo nl dut nn nno no nor nr nbl nv nav ny nya
  oc oci oj oji om orm or ori os oss pa pan pi pli pl pol ps pus pt por qu que
  rm roh rn run ro rum ru rus rw kin sa san sc srd sd snd se sme sg sag si sin sk slo sl slv
  sm smo sn sna so som sq alb sr srp ss ssw st sot su sun sv swe sw swa
  ta tam te tel tg tgk th tha ti tir tk tuk tl tgl tn tsn to ton tr tur ts tso tt tat tw twi ty tah
  ug uig uk ukr ur urd uz uzb ve ven vi vie vo vol wa wln wo wol xh xho yi yid yo yor
  za zha zh chi zu zul
`);

/** ISO 639-2's terminologic codes to the bibliographic ones MARC uses. */
const TERMINOLOGIC = table(`
  bod tib ces cze cym wel deu ger ell gre eus baq fas per fra fre hye arm isl ice kat geo
  mkd mac mri mao msa may mya bur nld dut ron rum slk slo sqi alb zho chi
`);

/** ISO 639-3 individual languages to their macrolanguage's MARC code. */
const INDIVIDUAL = table(`
  cmn chi yue chi wuu chi hak chi nan chi hsn chi gan chi cdo chi cjy chi lzh chi
  arb ara ary ara arz ara apc ara ajp ara acm ara aeb ara arq ara ayl ara
  pes per prs per zsm may ekk est lvs lav swh swa khk mon uzn uzb ydd yid kmr kur ckb kur
  azj aze azb aze plt mlg
`);

/** ISO 639-3 sign languages a Spanish or French network may meet (MARC has `sgn` for all). */
const SIGN = new Set(
  "ase bfi bzs csc csl dse fsl gsg ils ise jsl mfs psr rsl sfs ssp swl vsv aed csg csn ecs prl vsl".split(
    " ",
  ),
);

/** The codes of the MARC Code List for Languages, obsolete ones left out. */
const MARC = new Set(
  `aar abk ace ach ada ady afa afh afr ain aka akk alb ale alg alt amh ang anp apa ara arc arg arm arn arp art arw asm ast ath
  aus ava ave awa aym aze bad bai bak bal bam ban baq bas bat bej bel bem ben ber bho bih bik bin bis bla bnt bos bra bre btk
  bua bug bul bur byn cad cai car cat cau ceb cel cha chb che chg chi chk chm chn cho chp chr chu chv chy cmc cop cor cos cpe
  cpf cpp cre crh crp csb cus cze dak dan dar day del den dgr din div doi dra dsb dua dum dut dyu dzo efi egy eka elx eng enm
  epo est ewe ewo fan fao fat fij fil fin fiu fon fre frm fro frr frs fry ful fur gaa gay gba gem geo ger gez gil gla gle glg
  glv gmh goh gon gor got grb grc gre grn gsw guj gwi hai hat hau haw heb her hil him hin hit hmn hmo hrv hsb hun hup iba ibo
  ice ido iii ijo iku ile ilo ina inc ind ine inh ipk ira iro ita jav jbo jpn jpr jrb kaa kab kac kal kam kan kar kas kau kaw
  kaz kbd kha khi khm kho kik kin kir kmb kok kom kon kor kos kpe krc krl kro kru kua kum kur kut lad lah lam lao lat lav lez
  lim lin lit lol loz ltz lua lub lug lui lun luo lus mac mad mag mah mai mak mal man mao map mar mas may mdf mdr men mga mic
  min mis mkh mlg mlt mnc mni mno moh mon mos mul mun mus mwl mwr myn myv nah nai nap nau nav nbl nde ndo nds nep new nia nic
  niu nno nob nog non nor nqo nso nub nwc nya nym nyn nyo nzi oci oji ori orm osa oss ota oto paa pag pal pam pan pap pau peo
  per phi phn pli pol pon por pra pro pus que raj rap rar roa roh rom rum run rup rus sad sag sah sai sal sam san sas sat scn
  sco sel sem sga sgn shn sid sin sio sit sla slo slv sma sme smi smj smn smo sms sna snd snk sog som son sot spa srd srn srp
  srr ssa ssw suk sun sus sux swa swe syc syr tah tai tam tat tel tem ter tet tgk tgl tha tib tig tir tiv tkl tlh tli tmh tog
  ton tpi tsi tsn tso tuk tum tup tur tut tvl twi tyv udm uga uig ukr umb und urd uzb vai ven vie vol vot wak wal war was wel
  wen wln wol xal xho yao yap yid yor ypk zap zbl zen zha znd zul zun zxx zza`.split(/\s+/),
);

const known = new Map<string, string | null>();

/**
 * The MARC code of a BCP 47 tag (`es`, `es-419`, `ca-valencia`, `eus`, `sgn-ES`, `zxx`), or null
 * when it has none (an unknown or private-use language): such a language is left out of the coded
 * fields, never guessed. `va`, the catalogue's name for Valencian, is Catalan (`cat`), as in MARC.
 */
export function marcLanguage(tag: string): string | null {
  let code = known.get(tag);
  if (code === undefined) known.set(tag, (code = parse(tag)));
  return code;
}

function parse(tag: string): string | null {
  const primary = tag.trim().toLowerCase().split("-")[0]!;
  if (primary === "va") return "cat";
  const direct = FROM_639_1.get(primary);
  if (direct !== undefined) return direct;
  let language: string;
  try {
    // Canonical: deprecated codes (iw, in, mo), and registered tags such as sgn-ES (ssp).
    language = new Intl.Locale(tag.trim()).language ?? "und";
  } catch {
    return null;
  }
  if (SIGN.has(language)) return "sgn";
  const code =
    FROM_639_1.get(language) ?? TERMINOLOGIC.get(language) ?? INDIVIDUAL.get(language) ?? language;
  return MARC.has(code) ? code : null;
}

/** Pairs written one after the other, `key value key value`. */
function table(text: string): ReadonlyMap<string, string> {
  const words = text.trim().split(/\s+/);
  const map = new Map<string, string>();
  for (let i = 0; i < words.length; i += 2) map.set(words[i]!, words[i + 1]!);
  return map;
}

/** The MARC codes this module can give, for tests that check them against another list. */
export const marcLanguageCodes = (): string[] => [
  ...new Set([
    ...FROM_639_1.values(),
    ...TERMINOLOGIC.values(),
    ...INDIVIDUAL.values(),
    ...MARC,
    "sgn",
  ]),
];

/**
 * ISO 3166-1 alpha-2 to the MARC Code List for Countries (the Library of Congress's list: one
 * code a country, `xxu`, `xxc`, `xxk` for the United States, Canada and the United Kingdom as a
 * whole). Left out, so coded as unknown: places the MARC list has no code of their own for
 * (Åland, Guernsey, Jersey, the Isle of Man, Svalbard) or splits (Palestine: Gaza, West Bank).
 * XK is the code in common use for Kosovo.
 */
const COUNTRIES = table(`
  AD an AE ts AF af AG aq AI am AL aa AM ai AO ao AQ ay AR ag AS as AT au AU at AW aw AZ aj
  BA bn BB bb BD bg BE be BF uv BG bu BH ba BI bd BJ dm BL sc BM bm BN bx BO bo BQ ca BR bl
  BS bf BT bt BV bv BW bs BY bw BZ bh CA xxc CC xb CD cg CF cx CG cf CH sz CI iv CK cw CL cl
  CM cm CN cc CO ck CR cr CU cu CV cv CW co CX xa CY cy CZ xr DE gw DJ ft DK dk DM dq DO dr
  DZ ae EC ec EE er EG ua EH ss ER ea ES sp ET et FI fi FJ fj FK fk FM fm FO fa FR fr GA go
  GB xxk GD gd GE gs GF fg GH gh GI gi GL gl GM gm GN gv GP gp GQ eg GR gr GS xs GT gt GU gu
  GW pg GY gy HK cc HM hm HN ho HR ci HT ht HU hu ID io IE ie IL is IN ii IO bi IQ iq IR ir
  IS ic IT it JM jm JO jo JP ja KE ke KG kg KH cb KI gb KM cq KN xd KP kn KR ko KW ku KY cj
  KZ kz LA ls LB le LC xk LI lh LK ce LR lb LS lo LT li LU lu LV lv LY ly MA mr MC mc MD mv
  ME mo MF st MG mg MH xe MK xn ML ml MM br MN mp MO cc MP nw MQ mq MR mu MS mj MT mm MU mf
  MV xc MW mw MX mx MY my MZ mz NA sx NC nl NE ng NF nx NG nr NI nq NL ne NO no NP np NR nu
  NU xh NZ nz OM mk PA pn PE pe PF fp PG pp PH ph PK pk PL pl PM xl PN pc PR pr PT po PW pw
  PY py QA qa RE re RO rm RS rb RU ru RW rw SA su SB bp SC se SD sj SE sw SG si SH xj SI xv
  SK xo SL sl SM sm SN sg SO so SR sr SS sd ST sf SV es SX sn SY sy SZ sq TC tc TD cd TF fs
  TG tg TH th TJ ta TK tl TL em TM tk TN ti TO to TR tu TT tr TV tv TW ch TZ tz UA un UG ug
  UM up US xxu UY uy UZ uz VA vc VC xm VE ve VG vb VI vi VN vm VU nn WF wf WS ws XK kv YE ye
  YT ot ZA sa ZM za ZW rh
`);

/** The MARC country code of an ISO 3166-1 alpha-2 code (any case), or null when it has none. */
export const marcCountry = (iso: string): string | null =>
  COUNTRIES.get(iso.trim().toUpperCase()) ?? null;

/** Every pair, for tests that check them against another list. */
export const marcCountryTable = (): [string, string][] => [...COUNTRIES];
