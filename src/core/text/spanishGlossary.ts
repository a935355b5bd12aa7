/**
 * A small hand-written Spanish → English glossary of generic technical and office vocabulary, read
 * as russianGlossary.ts reads Russian: a request in Spanish (told by its function words,
 * `otherLatinLanguage`) was matched on its names and cognates alone, since the encoder and the
 * word index read English. Generic vocabulary only: nothing here names a skill or a request of any
 * library.
 *
 * Each entry is a stem (limpi → limpia, limpiar, limpiando); a word, lower-cased and without its
 * accents, is read by the longest stem it starts with when what follows is an ending (at most two
 * letters after a stem of three, four after one of four, five after a longer one: -ación, -iendo). Spanish function words are left out; any other word is
 * kept as written (a name, a file type, a cognate). One line per stem: the stem, then English
 * alternatives separated by `|`, best first.
 */
import { spa } from 'stopword';
import { longestEntry, parseGlossary, stemOf } from './stemGlossary';

const SPANISH = `
revis review|check
analiz analyze
audit audit
comprob check|verify
verific verify|check
valid validate
prueb test
depur debug
error error
errores errors
fallo failure|bug
fall fail
problem problem
arregl fix
corrig fix|correct
correg fix|correct
solucion solve|solution
repar repair
optimiz optimize
mejor improve
rendimient performance
rapid fast
lent slow
memori memory
registr record|log
funcion function
codig code
program program
programaci programming
compil compile
llamad call
variabl variable
bucl loop
archiv file
ficher file
carpet folder
directori directory
document document
documentaci documentation
text text
tabl table
fila row
filas rows
column column
dat data
base base
consult query
busc search|find
busqu search|find
encuentr find
encontr find
extra extract
extraig extract
convert convert
conviert convert
transform transform
gener generate
crea create
crear create
cread create
creame create
escrib write
redact write|draft
edit edit
modific modify
cambi change
actualiz update
elimin delete|remove
borr delete
quit remove
agreg add
anad add
insert insert
mov move
muev move
copi copy
guard save
carg load|upload
descarg download
subir upload
sube upload
envi send
mand send
correo email|mail
mensaj message
notific notify|notification
alert alert
calendari calendar
reuni meeting
agend schedule|agenda
tare task
proyect project
plan plan
planific plan
disen design
arquitectur architecture
estructur structure
component component
modul module
bibliotec library
librer library
paquet package
dependenci dependency
versi version
instal install
configur configure
ajust adjust|setting
opci option
servidor server
client client
servici service
solicitud request
petici request
respuest response|answer
red network
redes networks
pagin page
sitio site
enlac link
imag image
foto photo
vide video
audi audio
sonid sound
graf chart
diagram diagram
inform report
report report
resum summarize|summary
explic explain
describ describe
descripci description
traduc translate
compar compare
list list
mostr show
muestr show
ver see|show
abr open
abre open
cerr close
ejecut run|execute
lanz launch|run
inici start
deten stop
despleg deploy
desplieg deploy
public publish
rama branch
ramas branches
fusion merge
confirm confirm|commit
repositori repository
segur security|safe
vulnerab vulnerability
contrasen password
usuari user
cuent account
permis permission
acces access
ayud help
necesit need
quier want
nuev new
ultim latest|last
actual current
tod all
cada each
hoy today
ayer yesterday
seman week
mes month
fech date
hora hour|time
tiemp time
limpi clean
orden sort|order
ordena sort
filtr filter
agrup group
cont count
contenid content
calcul calculate
estadistic statistics
model model
entren train
agent agent
habilidad skill
herramient tool
plantill template
ejempl example
paso step
pasos steps
fluj flow|workflow
proces process
automatiz automate
integr integrate
conect connect
conexi connection
sincroniz sync
respald backup
restaur restore
recuper recover
migr migrate
pantall screen
ventan window
boton button
formulari form
estil style
fuent source|font
anim animation
efect effect
movimient motion
jueg game
nivel level
mapa map
duplic duplicate
control control
contrat contract
context context
contien contain
conten contain
movil mobile
informaci information
general general
codific encode|encoding
caracter character
corromp corrupt
corrupt corrupt
respet respect|follow
`;

/** Spanish stem → English alternatives, best first. */
export const SPANISH_GLOSSARY = parseGlossary(SPANISH);

const LONGEST = longestEntry(SPANISH_GLOSSARY);
/** Letters an ending may have after a stem of 3, 4, or 5 and more letters (-ación, -iendo). */
const ENDING = [2, 4, 5];

/** Common Spanish words the `stopword` package's list does not have, which name no topic. */
const MORE_FUNCTION_WORDS = 'este esta estos estas esto ese esa esos esas estan esta estar estoy es son ser sea hay hace hacer haz tiene tienen tengo tenemos puedes puede podemos quiero queremos favor aqui asi alli cual cuales como donde cuanto solo ahora luego despues antes bien mal algo nada cosa cosas'.split(' ');

/** Spanish function words (the `stopword` package's list and the above), lower-cased and without accents too. */
const FUNCTION_WORDS = new Set<string>([...spa, ...MORE_FUNCTION_WORDS].flatMap((w: string) => [w, plain(w)]));

/** A word lower-cased and without its accents (ñ as n). */
function plain(word: string): string {
  return word.toLowerCase().normalize('NFD').replace(/[\u0300-\u036f]/g, '');
}

/** The glossary stem a Spanish word is read by, or null (see the module comment). */
export function spanishStem(word: string): string | null {
  return stemOf(plain(word), SPANISH_GLOSSARY, LONGEST, (n) => ENDING[Math.min(n, 5) - 3]);
}

/** One word of a Spanish request the glossary read. */
export interface SpanishWord {
  at: number;
  source: string;
  english: readonly string[];
}

/**
 * A Spanish request in English as far as the glossary reads it: each word it knows replaced by
 * its first English, function words left out, every other word kept as written. Null when it
 * knows none of the words.
 */
export function glossSpanish(text: string): { readAs: string; words: SpanishWord[] } | null {
  const words: SpanishWord[] = [];
  const out: string[] = [];
  let last = 0;
  for (const m of text.matchAll(/\p{L}[\p{L}\p{N}]*/gu)) {
    out.push(text.slice(last, m.index));
    last = m.index! + m[0].length;
    const word = m[0];
    if (FUNCTION_WORDS.has(plain(word))) continue;
    const stem = /^\p{Ll}/u.test(word) || /^\p{Lu}\p{Ll}*$/u.test(word) ? spanishStem(word) : null;
    if (stem) {
      const english = SPANISH_GLOSSARY.get(stem)!;
      words.push({ at: m.index!, source: word, english });
      out.push(english[0]);
    } else {
      out.push(word);
    }
  }
  out.push(text.slice(last));
  if (!words.length) return null;
  return { readAs: out.join('').replace(/\s+/g, ' ').replace(/\s+([.,!?;:])/g, '$1').trim(), words };
}
